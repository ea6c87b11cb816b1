import Foundation

/// What writing Apple's versions of a purchase changed.
struct AppliedVersions: Sendable {
    /// The accounts that hold the purchase (after an appAccountToken claimed it, if one did);
    /// empty when nobody does.
    var holders: [UUID] = []
    /// The versions stored, by account.
    var inserted: Set<VersionKey> = []
    /// The accounts whose renewal info of the purchase was replaced.
    var renewalInfoStored: Set<UUID> = []
    /// The events appended.
    var events: [NewEvent] = []
    /// Every account whose version changed, with its new version.
    var changedAccounts: [UUID: Int64] = [:]

    /// Whether no account holds the purchase.
    var isUnclaimed: Bool { holders.isEmpty }
}
