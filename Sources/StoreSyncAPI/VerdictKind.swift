/// What the server made of one transaction or claim a device presented.
public enum VerdictKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Verified and new to the account.
    case accepted
    /// Verified and already held: re-delivery changes nothing.
    case known
    /// Not acceptable (bad signature, wrong bundle or environment); the device should drop it.
    case rejected
    /// Another account owns the purchase and the transfer policy keeps it there.
    case ownedByOtherAccount
    /// The purchase moved to this account from another.
    case transferred
    /// A claim no verified evidence confirms; it grants nothing.
    case unverifiedClaim
}
