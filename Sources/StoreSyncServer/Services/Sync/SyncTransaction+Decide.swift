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
    func decide(_ chains: [String: [TransactionRecord]], before: Ledger) async throws
        -> ([String: OwnershipDecision], [String: PurchaseOwner])
    {
        guard !chains.isEmpty else { return ([:], [:]) }
        let tokens = Set(chains.values.joined().compactMap(\.appAccountToken))
        let tokenAccounts = try await accounts.accounts(byAppAccountTokens: Array(tokens), on: connection)
        func tokenAccount(of id: String) -> UUID? {
            chains[id]!.lazy.compactMap(\.appAccountToken).compactMap { tokenAccounts[$0] }.first
        }

        let held = Set(before.records.map(\.originalTransactionId))
        let ownedHere = try await ownership.owners(chains.keys.filter(held.contains), ownedBy: presenter, on: connection)
        var owners: [String: PurchaseOwner] = [:]
        var decisions: [String: OwnershipDecision] = [:]
        for (id, owner) in ownedHere {
            let decision = rules.decide(
                presenter: presenter, owner: presenter, boundByToken: owner.boundByToken, tokenAccount: tokenAccount(of: id),
                userInitiated: options.userInitiated, ownerHasActiveSubscription: false)
            guard decision == .keepHere(claim: nil) else { continue }
            (owners[id], decisions[id]) = (owner, decision)
        }

        let contested = chains.keys.filter { decisions[$0] == nil }.sorted()
        try await ownership.ensureRows(contested.map { ($0, chains[$0]![0].environment) }, on: connection)
        let locked = try await ownership.lockOwners(contested, on: connection)
        let ownedElsewhere = contested.compactMap { id -> (originalTransactionId: String, accountId: UUID)? in
            guard let owner = locked[id]?.accountId, owner != presenter else { return nil }
            return (id, owner)
        }
        let activeElsewhere = rules.policy == .transferIfNoActiveSubscription
            ? try await activeSubscriptions(ownedElsewhere) : []
        for id in contested {
            let owner = locked[id]
            owners[id] = owner
            decisions[id] = rules.decide(
                presenter: presenter, owner: owner?.accountId, boundByToken: owner?.boundByToken ?? false,
                tokenAccount: tokenAccount(of: id), userInitiated: options.userInitiated,
                ownerHasActiveSubscription: activeElsewhere.contains(id))
        }
        return (decisions, owners)
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
