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
        for id in contested {
            let owner = locked[id]
            var ownerActive = false
            if rules.policy == .transferIfNoActiveSubscription, let current = owner?.accountId, current != presenter {
                ownerActive = try await hasActiveSubscription(id, of: current)
            }
            owners[id] = owner
            decisions[id] = rules.decide(
                presenter: presenter, owner: owner?.accountId, boundByToken: owner?.boundByToken ?? false,
                tokenAccount: tokenAccount(of: id), userInitiated: options.userInitiated,
                ownerHasActiveSubscription: ownerActive)
        }
        return (decisions, owners)
    }

    private func hasActiveSubscription(_ chain: String, of accountId: UUID) async throws -> Bool {
        let records = try await transactions.chain(chain, of: accountId, on: connection)
        let info = try await renewals.renewalInfo(of: accountId, chain: chain, on: connection)
        let ledger = Ledger(records: records, renewalInfos: info.map { [$0] } ?? [])
        return entitlements(ledger: ledger, catalog: catalog, at: now)
            .contains { $0.originalTransactionId == chain && $0.source == .autoRenewable }
    }
}
