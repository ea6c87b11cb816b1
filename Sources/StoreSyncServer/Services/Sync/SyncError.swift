/// Why an upload is refused as a whole. Nothing was changed.
enum SyncError: Error, Equatable {
    /// The one purchase uploaded is owned by another account, and a background upload never
    /// moves a purchase; `reason` says why it stays there.
    case ownedByOtherAccount(reason: String)
}
