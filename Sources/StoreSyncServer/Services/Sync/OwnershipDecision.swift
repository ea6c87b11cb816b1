import Foundation

/// Where one presented purchase (chain) goes, decided before anything is written.
enum OwnershipDecision: Sendable, Hashable {
    /// The presenting account holds it: it owned it already, or claims it now.
    case keepHere(claim: ClaimKind?)
    /// It moves from its owner to the presenting account.
    case transfer(from: UUID, reason: String)
    /// The presenting account gets its own copy; the owner keeps it too.
    case share(owner: UUID)
    /// It belongs to the account its appAccountToken names, which is not the presenting one.
    case routeToTokenAccount(UUID)
    /// It stays where it is; the presenting account gets `ownedByOtherAccount`.
    case refuse(reason: String)
    /// It moved between accounts recently and stays where it is until the transfer cool-down
    /// ends at `movableAt`; the presenting account gets `ownedByOtherAccount` saying when.
    case coolingDown(movableAt: Date)

    /// How a purchase nobody held gets its owner.
    enum ClaimKind: Sendable, Hashable {
        case firstPresented
        case appAccountToken
        /// The presenting account owned it already; its token now binds it there for good.
        case bindToken
        /// The token's account takes a purchase another account held without a token binding.
        case tokenOverridesOwner(previous: UUID)
    }
}

/// The ownership rules of DESIGN §4 as a pure function: who presents, who owns, what the
/// token says, what the policy allows.
struct OwnershipRules: Sendable {
    let policy: TransferPolicy
    /// How long a purchase that moved between accounts stays put before it may move again: two
    /// accounts holding one JWS must not bounce it back and forth without limit. Zero: no wait.
    var transferCooldown: TimeInterval = 0

    /// Decides for one purchase.
    ///
    /// - Parameters:
    ///   - presenter: The account presenting the purchase.
    ///   - owner: The current owner (`nil`: nobody holds it).
    ///   - boundByToken: Whether the owner was fixed by an appAccountToken.
    ///   - tokenAccount: The account the transaction's appAccountToken names, if it names one.
    ///   - userInitiated: Whether the user asked for this restore.
    ///   - ownerHasActiveSubscription: Whether the purchase is an active subscription of its owner.
    ///   - lastMovedAt: When the purchase last moved between accounts (`nil`: never).
    ///   - now: The time of the decision.
    func decide(
        presenter: UUID,
        owner: UUID?,
        boundByToken: Bool,
        tokenAccount: UUID?,
        userInitiated: Bool,
        ownerHasActiveSubscription: @autoclosure () -> Bool,
        lastMovedAt: Date? = nil,
        now: Date = .distantPast
    ) -> OwnershipDecision {
        if let tokenAccount {
            guard tokenAccount == presenter else { return .routeToTokenAccount(tokenAccount) }
            switch owner {
            case nil: return .keepHere(claim: .appAccountToken)
            case presenter?: return .keepHere(claim: boundByToken ? nil : .bindToken)
            case let previous?: return .keepHere(claim: .tokenOverridesOwner(previous: previous))
            }
        }
        guard let owner else { return .keepHere(claim: .firstPresented) }
        if owner == presenter { return .keepHere(claim: nil) }
        if boundByToken { return .refuse(reason: "the purchase belongs to the account its appAccountToken names") }
        switch policy {
        case .share:
            return .share(owner: owner)
        case .keep:
            return .refuse(reason: "the purchase is owned by another account")
        case .transfer, .transferIfNoActiveSubscription:
            guard userInitiated else {
                return .refuse(reason: "the purchase is owned by another account; only a restore the user asks for may move it")
            }
            if policy == .transferIfNoActiveSubscription && ownerHasActiveSubscription() {
                return .refuse(reason: "the purchase is an active subscription of another account")
            }
            if let lastMovedAt, lastMovedAt.addingTimeInterval(transferCooldown) > now {
                return .coolingDown(movableAt: lastMovedAt.addingTimeInterval(transferCooldown))
            }
            return .transfer(from: owner, reason: "restored by the user on another account (policy \(policy.rawValue))")
        }
    }
}
