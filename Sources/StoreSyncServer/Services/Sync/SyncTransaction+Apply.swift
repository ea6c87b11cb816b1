import Foundation
import PostgresLibPQ
import StoreSyncCore

extension SyncTransaction {
    /// Turns one decision into planned writes; ownership changes are written at once, under
    /// the locks taken while deciding.
    func apply(
        _ decision: OwnershipDecision, chain id: String, records: [TransactionRecord], before: Ledger, to plan: inout Plan
    ) async throws {
        switch decision {
        case .keepHere(let claim):
            plan.versions += records.map { (presenter, $0) }
            if let claim { try await take(id, for: presenter, claim: claim, to: &plan) }
        case .transfer(let from, let reason):
            try await move(id, from: from, to: presenter, reason: reason, boundByToken: false, to: &plan)
            plan.versions += records.map { (presenter, $0) }
        case .share(let owner):
            plan.versions += records.map { (presenter, $0) }
            if before.chain(id).isEmpty {
                plan.events.append(NewEvent(
                    accountId: presenter, kind: .purchaseShared, originalTransactionId: id, fromAccountId: owner,
                    toAccountId: presenter, reason: "transfer policy share: both accounts are entitled"))
            }
        case .routeToTokenAccount(let tokenAccount):
            _ = try await accounts.lockVersion(tokenAccount, on: connection)
            let owner = try await ownership.lockOwners([id], on: connection)[id]
            switch owner?.accountId {
            case tokenAccount?:
                if owner?.boundByToken == false { try await take(id, for: tokenAccount, claim: .bindToken, to: &plan) }
            case nil:
                try await take(id, for: tokenAccount, claim: .appAccountToken, to: &plan)
            case let previous?:
                try await take(id, for: tokenAccount, claim: .tokenOverridesOwner(previous: previous), to: &plan)
            }
            plan.versions += records.map { (tokenAccount, $0) }
        case .refuse:
            break
        }
    }

    /// Makes `account` the owner of a purchase.
    private func take(_ id: String, for account: UUID, claim: OwnershipDecision.ClaimKind, to plan: inout Plan)
        async throws
    {
        switch claim {
        case .bindToken:
            try await ownership.setOwner(id, to: account, boundByToken: true, on: connection)
        case .firstPresented, .appAccountToken:
            let byToken = claim == .appAccountToken
            try await ownership.setOwner(id, to: account, boundByToken: byToken, on: connection)
            plan.events.append(NewEvent(
                accountId: account, kind: .purchaseClaimed, originalTransactionId: id, toAccountId: account,
                reason: byToken ? "its appAccountToken names this account" : "the first account to present it"))
            plan.changed.insert(account)
            try await mergeUnclaimed(id, into: account, to: &plan)
        case .tokenOverridesOwner(let previous):
            try await move(
                id, from: previous, to: account, reason: "its appAccountToken names this account",
                boundByToken: true, to: &plan)
        }
    }

    /// Moves a purchase with its whole history from one account to another.
    private func move(
        _ id: String, from source: UUID, to target: UUID, reason: String, boundByToken: Bool, to plan: inout Plan
    ) async throws {
        _ = try await accounts.lockVersion(source, on: connection)
        try await transactions.copyChains([id], from: source, to: target, on: connection)
        try await transactions.deleteChains([id], from: source, on: connection)
        try await ownership.setOwner(id, to: target, boundByToken: boundByToken, on: connection)
        for account in [source, target] {
            plan.events.append(NewEvent(
                accountId: account, kind: .ownershipTransferred, originalTransactionId: id, fromAccountId: source,
                toAccountId: target, reason: reason))
        }
        plan.changed.formUnion([source, target])
    }

    /// Signed versions that Server Notifications brought before any account held the purchase.
    private func mergeUnclaimed(_ id: String, into account: UUID, to plan: inout Plan) async throws {
        for (kind, payload) in try await notifications.takeUnclaimed([id], on: connection) {
            switch await verifyUnclaimed(kind, payload) {
            case .transaction(let record)?: plan.versions.append((account, record))
            case .renewalInfo(let info)?: plan.renewalInfos.append((account, info))
            case nil: continue
            }
        }
    }

    /// The latest renewal info per account and purchase, by the ledger's own merge law.
    static func latestRenewalInfos(_ infos: [(accountId: UUID, info: RenewalInfo)]) -> [(UUID, RenewalInfo)] {
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
