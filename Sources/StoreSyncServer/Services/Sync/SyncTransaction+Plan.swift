import Foundation
import PostgresLibPQ
import StoreSyncCore

extension SyncTransaction {
    /// Turns the decisions into planned writes, purchase by purchase in id order; nothing
    /// touches the database here.
    ///
    /// - Parameters:
    ///   - chains: The verified records presented, by purchase.
    ///   - decided: Where each purchase goes.
    ///   - before: The presenter's ledger at the version its lock holds.
    /// - Returns: The writes, with the owner rows deciding wrote already.
    func plan(_ chains: [String: [TransactionRecord]], decided: Decided, before: Ledger) -> Plan {
        var plan = Plan(ownersWritten: decided.ownersWritten)
        // Sized once: a restore plans a version, an owner row, an event and a claim per purchase.
        plan.versions.reserveCapacity(chains.values.reduce(0) { $0 + $1.count })
        plan.events.reserveCapacity(chains.count)
        plan.newOwners.reserveCapacity(chains.count)
        plan.claims.reserveCapacity(chains.count)
        for (id, records) in Self.inPlanOrder(chains) {
            guard let decision = decided.decisions[id] else { continue }
            plan.apply(
                decision, chain: id, records: records, owner: decided.owners[id], presenter: presenter, before: before,
                at: now)
        }
        return plan
    }
}

extension SyncTransaction {
    /// The purchases in the order a plan takes them, by id: the order of its versions, which a
    /// versions insert encoded before the plan (``encodeExpectedInsert(_:presenter:before:)``)
    /// must follow to be used.
    static func inPlanOrder(_ chains: [String: [TransactionRecord]]) -> [(key: String, value: [TransactionRecord])] {
        chains.sorted { $0.key < $1.key }
    }
}

extension SyncTransaction.Plan {
    /// Turns one decision into planned writes; nothing touches the database here.
    ///
    /// - Parameter now: The time of the sync: a move made now starts the purchase's cool-down.
    mutating func apply(
        _ decision: OwnershipDecision, chain id: String, records: [TransactionRecord], owner: PurchaseOwner?,
        presenter: UUID, before: Ledger, at now: Date
    ) {
        switch decision {
        case .keepHere(let claim):
            versions.append(contentsOf: records.lazy.map { (presenter, $0) })
            if let claim { take(id, for: presenter, claim: claim, at: now) }
        case .transfer(let from, let reason):
            move(id, from: from, to: presenter, reason: reason, boundByToken: false, at: now)
            versions.append(contentsOf: records.lazy.map { (presenter, $0) })
        case .share(let owner):
            versions.append(contentsOf: records.lazy.map { (presenter, $0) })
            if before.chain(id).isEmpty {
                // A new holder gets every version the owner holds, not only what it presents: a
                // refund or renewal stored before it shared reaches it too.
                shares.append(SyncTransaction.Move(originalTransactionId: id, from: owner, to: presenter))
                events.append(NewEvent(
                    accountId: presenter, kind: .purchaseShared, originalTransactionId: id, fromAccountId: owner,
                    toAccountId: presenter, reason: "transfer policy share: both accounts are entitled"))
            }
        case .routeToTokenAccount(let tokenAccount):
            accountsToLock.insert(tokenAccount)
            switch owner?.accountId {
            case tokenAccount?:
                if owner?.boundByToken == false { take(id, for: tokenAccount, claim: .bindToken, at: now) }
            case nil:
                take(id, for: tokenAccount, claim: .appAccountToken, at: now)
            case let previous?:
                take(id, for: tokenAccount, claim: .tokenOverridesOwner(previous: previous), at: now)
            }
            versions.append(contentsOf: records.lazy.map { (tokenAccount, $0) })
        case .refuse, .coolingDown:
            break
        }
    }

    /// Makes `account` the owner of a purchase.
    private mutating func take(_ id: String, for account: UUID, claim: OwnershipDecision.ClaimKind, at now: Date) {
        switch claim {
        case .bindToken:
            newOwners.append(OwnerChange(originalTransactionId: id, accountId: account, boundByToken: true))
        case .firstPresented, .appAccountToken:
            let byToken = claim == .appAccountToken
            newOwners.append(OwnerChange(originalTransactionId: id, accountId: account, boundByToken: byToken))
            events.append(NewEvent(
                accountId: account, kind: .purchaseClaimed, originalTransactionId: id, toAccountId: account,
                reason: byToken ? "its appAccountToken names this account" : "the first account to present it"))
            changed.insert(account)
            claims.append((id, account))
        case .tokenOverridesOwner(let previous):
            move(id, from: previous, to: account, reason: "its appAccountToken names this account", boundByToken: true, at: now)
        }
    }

    /// Moves a purchase with its whole history from one account to another; the move starts
    /// its cool-down.
    private mutating func move(
        _ id: String, from source: UUID, to target: UUID, reason: String, boundByToken: Bool, at now: Date
    ) {
        accountsToLock.insert(source)
        moves.append(SyncTransaction.Move(originalTransactionId: id, from: source, to: target))
        newOwners.append(OwnerChange(originalTransactionId: id, accountId: target, boundByToken: boundByToken, movedAt: now))
        for account in [source, target] {
            events.append(NewEvent(
                accountId: account, kind: .ownershipTransferred, originalTransactionId: id, fromAccountId: source,
                toAccountId: target, reason: reason))
        }
        changed.formUnion([source, target])
    }

    /// Adds a version kept for a purchase claimed now, once verified again; `nil` (it no longer
    /// verifies) adds nothing.
    mutating func add(_ version: UnclaimedVersion?, for accountId: UUID) {
        switch version {
        case .transaction(let record)?: versions.append((accountId, record))
        case .renewalInfo(let info)?: renewalInfos.append((accountId, info))
        case nil: break
        }
    }
}
