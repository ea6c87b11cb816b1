import Foundation
import PostgresLibPQ
import StoreSyncCore

extension SyncTransaction.Plan {
    /// Turns one decision into planned writes; nothing touches the database here.
    mutating func apply(
        _ decision: OwnershipDecision, chain id: String, records: [TransactionRecord], owner: PurchaseOwner?,
        presenter: UUID, before: Ledger
    ) {
        switch decision {
        case .keepHere(let claim):
            versions += records.map { (presenter, $0) }
            if let claim { take(id, for: presenter, claim: claim) }
        case .transfer(let from, let reason):
            move(id, from: from, to: presenter, reason: reason, boundByToken: false)
            versions += records.map { (presenter, $0) }
        case .share(let owner):
            versions += records.map { (presenter, $0) }
            if before.chain(id).isEmpty {
                events.append(NewEvent(
                    accountId: presenter, kind: .purchaseShared, originalTransactionId: id, fromAccountId: owner,
                    toAccountId: presenter, reason: "transfer policy share: both accounts are entitled"))
            }
        case .routeToTokenAccount(let tokenAccount):
            accountsToLock.insert(tokenAccount)
            switch owner?.accountId {
            case tokenAccount?:
                if owner?.boundByToken == false { take(id, for: tokenAccount, claim: .bindToken) }
            case nil:
                take(id, for: tokenAccount, claim: .appAccountToken)
            case let previous?:
                take(id, for: tokenAccount, claim: .tokenOverridesOwner(previous: previous))
            }
            versions += records.map { (tokenAccount, $0) }
        case .refuse:
            break
        }
    }

    /// Makes `account` the owner of a purchase.
    private mutating func take(_ id: String, for account: UUID, claim: OwnershipDecision.ClaimKind) {
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
            move(id, from: previous, to: account, reason: "its appAccountToken names this account", boundByToken: true)
        }
    }

    /// Moves a purchase with its whole history from one account to another.
    private mutating func move(_ id: String, from source: UUID, to target: UUID, reason: String, boundByToken: Bool) {
        accountsToLock.insert(source)
        moves.append(SyncTransaction.Move(originalTransactionId: id, from: source, to: target))
        newOwners.append(OwnerChange(originalTransactionId: id, accountId: target, boundByToken: boundByToken))
        for account in [source, target] {
            events.append(NewEvent(
                accountId: account, kind: .ownershipTransferred, originalTransactionId: id, fromAccountId: source,
                toAccountId: target, reason: reason))
        }
        changed.formUnion([source, target])
    }
}

extension SyncTransaction {
    /// Writes the plan's ownership changes: other accounts locked in one statement (in id
    /// order), all moves in four (versions and renewal infos, copied then deleted), every owner
    /// row not inserted with its owner already in one, and the versions Server Notifications
    /// kept for newly claimed purchases fetched in one.
    func execute(_ plan: inout Plan) async throws {
        plan.accountsToLock.remove(presenter)
        try await accounts.lockVersions(Array(plan.accountsToLock), on: connection)
        // Every copy reads its source before any deletion, whichever accounts the moves link.
        let moves = plan.moves.map { (originalTransactionId: $0.originalTransactionId, from: $0.from, to: $0.to) }
        try await transactions.copyChains(moves, on: connection)
        try await transactions.deleteChains(moves, on: connection)
        try await ownership.setOwners(plan.newOwners.filter { !plan.ownersWritten.contains($0) }, on: connection)
        try await mergeUnclaimed(into: &plan)
    }

    /// Signed versions that Server Notifications brought before any account held the purchase.
    private func mergeUnclaimed(into plan: inout Plan) async throws {
        guard !plan.claims.isEmpty else { return }
        let claimant = Dictionary(plan.claims, uniquingKeysWith: { first, _ in first })
        for kept in try await notifications.takeUnclaimed(Array(claimant.keys), on: connection) {
            guard let account = claimant[kept.originalTransactionId] else { continue }
            switch await verifyUnclaimed(kept.kind, kept.signedPayload) {
            case .transaction(let record)?: plan.versions.append((account, record))
            case .renewalInfo(let info)?: plan.renewalInfos.append((account, info))
            case nil: continue
            }
        }
    }

    /// The latest renewal info per account and purchase, by the ledger's own merge law.
    static func latestRenewalInfos(_ infos: [(accountId: UUID, info: RenewalInfo)]) -> [(accountId: UUID, info: RenewalInfo)] {
        var ledgers: [UUID: Ledger] = [:]
        for (account, info) in infos { ledgers[account, default: Ledger()].merge(info) }
        return ledgers.flatMap { account, ledger in ledger.renewalInfos.map { (account, $0) } }
    }

    /// `revoked` and `revocationReversed` events for transactions whose merged version changed
    /// revocation state.
    static func revocationEvents(account: UUID, before: Ledger, after: Ledger) -> [NewEvent] {
        after.records.compactMap { record in
            let wasRevoked = before[record.transactionId]?.isRevoked ?? false
            guard wasRevoked != record.isRevoked else { return nil }
            return NewEvent(
                accountId: account, kind: record.isRevoked ? .revoked : .revocationReversed,
                originalTransactionId: record.originalTransactionId, transactionId: record.transactionId,
                reason: record.isRevoked
                    ? "Apple revoked it (reason \(record.revocationReason.map { String($0.rawValue) } ?? "unstated"))"
                    : "Apple reversed the refund")
        }
    }
}
