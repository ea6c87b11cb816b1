import AppStoreVerification
import Foundation
import Logging
import PostgresLibPQ
import StoreSyncCore

/// Writes Apple's versions of a purchase to every account that holds it, inside the caller's
/// database transaction: the one path by which Server Notifications and the App Store Server
/// API reach the ledger, with the same merge and events as uploads and restores.
///
/// The purchase's owner row is locked first, then each holder's version row, so this
/// serialises with uploads, restores and transfers of the purchase. A purchase nobody holds
/// goes to the account the appAccountToken of its newest transaction naming one names, with
/// the versions kept while nobody held it (a deleted account's); otherwise it waits for the
/// first account to present it. A version that only restates what a holder has is not stored.
struct AppleVersionsWriter: Sendable {
    private let accounts = AccountRepository()
    private let transactions = TransactionRepository()
    private let renewals = RenewalInfoRepository()
    private let ownership = OwnershipRepository()
    /// Appends the events (and queues their webhook deliveries) in the caller's transaction.
    let events: EventRepository
    /// Verifies the versions kept for a purchase nobody held, again, as an account takes it.
    let verifier: SignedDataVerifier
    let logger: Logger
    private let notifications = NotificationRepository()

    /// Merges the versions into every holder's ledger, appends the events they announce and
    /// bumps the version of every account that changed.
    ///
    /// - Parameters:
    ///   - versions: Apple's versions of one purchase.
    ///   - connection: A connection inside a database transaction.
    /// - Returns: What changed.
    func write(_ versions: AppleVersions, on connection: PostgresConnection) async throws -> AppliedVersions {
        let chain = versions.originalTransactionId
        try await ownership.insertMissing([(chain, versions.environment, owner: nil)], on: connection)
        let owner = try await ownership.lockOwners([chain], on: connection)[chain]
        var applied = AppliedVersions()
        var versions = versions
        var holders = try await transactions.holders(of: chain, on: connection)
        if holders.isEmpty {
            guard let account = try await tokenAccount(of: versions, on: connection) else {
                if case .notification = versions.source { try await keepUnclaimed(versions, on: connection) }
                return applied
            }
            versions = try await withKeptVersions(versions, on: connection)
            if owner?.accountId != account {
                try await ownership.setOwner(chain, to: account, boundByToken: true, on: connection)
                applied.events.append(NewEvent(
                    accountId: account, kind: .purchaseClaimed, originalTransactionId: chain, toAccountId: account,
                    reason: "the App Store sent a purchase whose appAccountToken names this account"))
            }
            holders = [account]
        }
        applied.holders = holders
        var changed = Set(applied.events.map(\.accountId))
        for holder in holders {
            if try await write(versions, to: holder, into: &applied, on: connection) { changed.insert(holder) }
        }
        applied.changedAccounts = try await events.append(applied.events, bumpingVersionsOf: changed, on: connection)
        return applied
    }

    /// The account the purchase goes to when nobody holds it, by its tokens, as a restore
    /// decides it (``Swift/Sequence/tokenAccount(among:)``).
    private func tokenAccount(of versions: AppleVersions, on connection: PostgresConnection) async throws -> UUID? {
        let tokens = Set(versions.transactions.compactMap(\.appAccountToken))
        guard !tokens.isEmpty else { return nil }
        let accountsByToken = try await accounts.accounts(byAppAccountTokens: Array(tokens), on: connection)
        return versions.transactions.tokenAccount(among: accountsByToken)
    }

    /// Apple's versions with those kept while nobody held the purchase, each verified again,
    /// taken out of keeping: the account the purchase now goes to gets its whole history (a
    /// deleted account's refund, say), and nothing of it stays behind.
    private func withKeptVersions(_ versions: AppleVersions, on connection: PostgresConnection) async throws -> AppleVersions {
        let kept = try await notifications.takeUnclaimed([versions.originalTransactionId], on: connection)
        guard !kept.isEmpty else { return versions }
        var transactions = versions.transactions
        var renewals = Ledger()
        if let renewal = versions.renewalInfo { renewals.merge(renewal) }
        for version in kept {
            switch await verifier.keptVersion(version.kind, version.signedPayload, logger: logger) {
            case .transaction(let record): transactions.append(record)
            case .renewalInfo(let info): renewals.merge(info)
            case nil: continue
            }
        }
        return AppleVersions(
            originalTransactionId: versions.originalTransactionId, transactions: transactions,
            renewalInfo: renewals.renewalInfos.first, source: versions.source)
    }

    /// Writes the versions to one holder; answers whether its rows changed.
    private func write(
        _ versions: AppleVersions, to holder: UUID, into applied: inout AppliedVersions, on connection: PostgresConnection
    ) async throws -> Bool {
        let chain = versions.originalTransactionId
        _ = try await accounts.lockVersion(holder, on: connection)
        let before = Ledger(records: try await transactions.chain(chain, of: holder, on: connection))
        let fresh = versions.transactions.filter { !$0.restates(before[$0.transactionId]) }
        let inserted = try await transactions.insert(fresh.map { (holder, $0) }, on: connection)
        applied.inserted.formUnion(inserted)
        var changed = !inserted.isEmpty
        if let renewal = versions.renewalInfo, try await store(renewal, for: holder, on: connection) {
            applied.renewalInfoStored.insert(holder)
            changed = true
        }
        applied.events += try await announced(versions, holder: holder, before: before, inserted: inserted, on: connection)
        if !inserted.isEmpty {
            let after = Ledger(records: try await transactions.chain(chain, of: holder, on: connection))
            applied.events += SyncTransaction.revocationEvents(account: holder, before: before, after: after, inserted: inserted)
        }
        return changed
    }

    /// Stores the renewal info when it is the holder's latest and says something new.
    private func store(_ renewal: RenewalInfo, for holder: UUID, on connection: PostgresConnection) async throws -> Bool {
        let current = try await renewals.renewalInfo(of: holder, chain: renewal.originalTransactionId, on: connection)
        var merged = Ledger(records: [], renewalInfos: current.map { [$0] } ?? [])
        guard merged.merge(renewal) != .unchanged, !renewal.restates(current) else { return false }
        try await renewals.store(renewal, for: holder, on: connection)
        return true
    }

    /// The renewals and expiries the versions announce to one holder.
    private func announced(
        _ versions: AppleVersions, holder: UUID, before: Ledger, inserted: Set<VersionKey>,
        on connection: PostgresConnection
    ) async throws -> [NewEvent] {
        let chain = versions.originalTransactionId
        var announced: [NewEvent] = []
        switch versions.source {
        case .notification(let type):
            let transactionId = versions.transactions.first?.transactionId
            if type == .didRenew, let transactionId,
                try await !events.contains(.renewed, accountId: holder, originalTransactionId: chain, transactionId: transactionId, on: connection)
            {
                announced.append(NewEvent(
                    accountId: holder, kind: .renewed, originalTransactionId: chain, transactionId: transactionId,
                    reason: "DID_RENEW from the App Store"))
            }
            // Once per transaction, whichever way Apple says it first: the App Store Server
            // API's status (reconciliation, a refresh), EXPIRED or GRACE_PERIOD_EXPIRED.
            if type == .expired || type == .gracePeriodExpired,
                try await !announcedExpiry(of: transactionId, holder: holder, chain: chain, on: connection)
            {
                announced.append(NewEvent(
                    accountId: holder, kind: .expired, originalTransactionId: chain, transactionId: transactionId,
                    reason: "\(type.rawValue) from the App Store"))
            }
        case .appStoreServerAPI(let renewals, let expiredTransactionId):
            // Once per transaction: a kept version of a renewal may be stored beside Apple's.
            var renewed: Set<String> = []
            for record in versions.transactions
            where renewals.contains(record.transactionId) && before[record.transactionId] == nil
                && inserted.contains(VersionKey(accountId: holder, record: record))
                && renewed.insert(record.transactionId).inserted
            {
                announced.append(NewEvent(
                    accountId: holder, kind: .renewed, originalTransactionId: chain, transactionId: record.transactionId,
                    reason: "a renewal the App Store Server API reported"))
            }
            if let expiredTransactionId,
                try await !announcedExpiry(of: expiredTransactionId, holder: holder, chain: chain, on: connection)
            {
                announced.append(NewEvent(
                    accountId: holder, kind: .expired, originalTransactionId: chain, transactionId: expiredTransactionId,
                    reason: "the App Store Server API reports the subscription expired"))
            }
        }
        return announced
    }

    /// Whether the holder was already told that this transaction expired; a notification
    /// naming no transaction cannot be matched and is always announced.
    private func announcedExpiry(
        of transactionId: String?, holder: UUID, chain: String, on connection: PostgresConnection
    ) async throws -> Bool {
        guard let transactionId else { return false }
        return try await events.contains(
            .expired, accountId: holder, originalTransactionId: chain, transactionId: transactionId, on: connection)
    }

    /// Keeps a notification's signed versions until an account presents the purchase.
    private func keepUnclaimed(_ versions: AppleVersions, on connection: PostgresConnection) async throws {
        let chain = versions.originalTransactionId
        for record in versions.transactions {
            guard let jws = record.signedTransaction else { continue }
            try await notifications.storeUnclaimed(
                originalTransactionId: chain, kind: .transaction, signedDate: record.signedDate, signedPayload: jws,
                on: connection)
        }
        if let renewal = versions.renewalInfo, let jws = renewal.signedRenewalInfo {
            try await notifications.storeUnclaimed(
                originalTransactionId: chain, kind: .renewalInfo, signedDate: renewal.signedDate, signedPayload: jws,
                on: connection)
        }
    }
}
