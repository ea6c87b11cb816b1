import Foundation
import PostgresLibPQ
import StoreSyncCore

extension SyncTransaction {
    /// Decides where each presented purchase goes, locking the owner rows whose decision
    /// depends on them.
    ///
    /// A purchase this account owns and holds, presented again without a token naming another
    /// account, stays where it is and needs no lock of its own: its owner can only change in a
    /// database transaction that takes this account's lock first (a transfer or token binding
    /// locks the account it takes the purchase from; a Server Notification assigns an owner only
    /// to a purchase no account holds), and this transaction took that lock before anything
    /// else. Sparing those locks matters because locking a row writes it: a restore of what the
    /// account already holds would otherwise write a thousand rows to change nothing, and wait
    /// behind any other restore that presents one of them.
    ///
    /// - Parameters:
    ///   - chains: The verified records presented, by purchase.
    ///   - before: The presenter's ledger at the version its lock holds.
    /// - Returns: The decision and the owner found of each purchase, and the owner rows written
    ///   already, each with the owner its decision gives it.
    func decide(_ chains: [String: [TransactionRecord]], before: Ledger) async throws -> Decided {
        guard !chains.isEmpty else { return Decided() }
        let tokens = Set(chains.values.joined().compactMap(\.appAccountToken))
        let tokenAccounts = try await accounts.accounts(byAppAccountTokens: Array(tokens), on: connection)
        func tokenAccount(of id: String) -> UUID? { chains[id]!.tokenAccount(among: tokenAccounts) }

        func decision(for id: String, owner: PurchaseOwner?, ownerHasActiveSubscription: Bool = false) -> OwnershipDecision {
            rules.decide(
                presenter: presenter, owner: owner?.accountId, boundByToken: owner?.boundByToken ?? false,
                tokenAccount: tokenAccount(of: id), userInitiated: options.userInitiated,
                ownerHasActiveSubscription: ownerHasActiveSubscription, lastMovedAt: owner?.movedAt, now: now)
        }

        let held = Set(before.records.map(\.originalTransactionId))
        let ownedHere = try await ownership.owners(chains.keys.filter(held.contains), ownedBy: presenter, on: connection)
        var decided = Decided()
        decided.decisions.reserveCapacity(chains.count)
        for (id, owner) in ownedHere {
            let kept = decision(for: id, owner: owner)
            guard kept == .keepHere(claim: nil) else { continue }
            (decided.owners[id], decided.decisions[id]) = (owner, kept)
        }

        let contested = chains.keys.filter { decided.decisions[$0] == nil }.sorted()
        // A purchase without an owner row gets one naming the owner it is decided to have when
        // nobody holds it, in the same statement, rather than an unowned row updated
        // afterwards. The rows this inserts are this transaction's until it ends, so only the
        // others need locking, and only theirs are decided again with the owner found.
        let unowned = contested.map { decision(for: $0, owner: nil) }
        let claimants = claimants(of: contested, by: unowned)
        let created = try await ownership.insertMissing(
            zip(contested, claimants).map { id, claimant in (id, chains[id]![0].environment, claimant) }, on: connection)
        let locked = try await ownership.lockOwners(contested.filter { !created.contains($0) }, on: connection)
        let ownedElsewhere = contested.compactMap { id -> (originalTransactionId: String, accountId: UUID)? in
            guard let owner = locked[id]?.accountId, owner != presenter else { return nil }
            return (id, owner)
        }
        let activeElsewhere = rules.policy == .transferIfNoActiveSubscription
            ? try await activeSubscriptions(ownedElsewhere) : []
        for (position, id) in contested.enumerated() {
            if created.contains(id) {
                decided.decisions[id] = unowned[position]
                decided.ownersWritten[id] = claimants[position]
            } else {
                let owner = locked[id]
                decided.owners[id] = owner
                decided.decisions[id] = decision(
                    for: id, owner: owner, ownerHasActiveSubscription: activeElsewhere.contains(id))
            }
        }
        return decided
    }

    /// The owner row the plan gives each purchase nobody holds under its decision, if it gives
    /// one: found by planning them, so the plan stays the one place that says who becomes the
    /// owner. One plan for all of them, each purchase giving at most one owner row.
    private func claimants(of ids: [String], by decisions: [OwnershipDecision]) -> [OwnerChange?] {
        var plan = Plan()
        let nothingHeld = Ledger()
        return zip(ids, decisions).map { id, decision in
            let planned = plan.newOwners.count
            plan.apply(decision, chain: id, records: [], owner: nil, presenter: presenter, before: nothingHeld, at: now)
            return plan.newOwners.count > planned ? plan.newOwners.last : nil
        }
    }

    /// Which of these purchases are subscriptions active for the account paired with each (its
    /// owner): two statements for all of them, not two per purchase.
    private func activeSubscriptions(_ chains: [(originalTransactionId: String, accountId: UUID)]) async throws
        -> Set<String>
    {
        let versions = try await transactions.chains(chains, on: connection)
        let infos = try await renewals.renewalInfos(of: chains, on: connection)
        return Set(chains.lazy.filter { chain, owner in
            let info = infos[owner]?[chain]
            let ledger = Ledger(records: versions[owner]?[chain] ?? [], renewalInfos: info.map { [$0] } ?? [])
            return entitlements(ledger: ledger, catalog: catalog, at: now)
                .contains { $0.originalTransactionId == chain && $0.source == .autoRenewable }
        }.map(\.originalTransactionId))
    }
}
