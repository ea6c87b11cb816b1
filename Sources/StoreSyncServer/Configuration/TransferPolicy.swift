/// What happens when a second account presents a purchase another account owns (DESIGN §4).
///
/// A transaction carrying an `appAccountToken` is never subject to the policy: it belongs
/// to that token's account. Only a user-initiated restore may move a purchase.
public enum TransferPolicy: String, Sendable, Hashable, CaseIterable {
    /// The purchase moves to the presenting account; the old account loses it (RevenueCat's default).
    case transfer
    /// It moves unless it is an auto-renewable subscription still active for its owner.
    case transferIfNoActiveSubscription
    /// It stays; the presenting account gets `ownedByOtherAccount`.
    case keep
    /// Both accounts are entitled; each keeps its own copy, the owner does not change.
    case share
}
