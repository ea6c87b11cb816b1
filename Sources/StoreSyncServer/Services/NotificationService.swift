import AppStoreVerification
import Foundation
import Logging
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore

/// App Store Server Notifications V2: refunds, renewals and revocations land on every
/// account holding the purchase without any device online. Processed once per
/// notificationUUID, in one database transaction with its effects.
struct NotificationService: Sendable {
    let pool: ConnectionPool
    let verifier: SignedDataVerifier
    let snapshots: SnapshotService
    let events: EventRepository
    let logger: Logger

    /// What became of a notification.
    enum Outcome: String, Sendable {
        case processed
        case duplicate
        case unclaimed
        case informational
    }

    private let accounts = AccountRepository()
    private let transactions = TransactionRepository()
    private let renewals = RenewalInfoRepository()
    private let ownership = OwnershipRepository()
    private let notifications = NotificationRepository()

    func receive(_ request: NotificationRequest) async throws -> Outcome {
        let verified: VerifiedNotification
        do {
            verified = try await verifier.verifyNotification(request.signedPayload)
        } catch {
            throw VerificationError.refused(field: "signedPayload", detail: "the notification was refused: \(error)")
        }
        let payload = verified.payload
        var metadata: Logger.Metadata = [
            "appstore.notification_type": "\(payload.notificationType.rawValue)",
            "appstore.notification_uuid": "\(payload.notificationUUID)",
        ]
        let record = verified.transaction?.record
        let renewal = verified.renewalInfo?.renewalInfo
        let chain = record?.originalTransactionId ?? renewal?.originalTransactionId
        if let chain { metadata["appstore.original_transaction_id"] = "\(chain)" }

        let (outcome, changed) = try await pool.withRetryingTransaction { connection in
            guard try await notifications.markProcessed(
                uuid: payload.notificationUUID, type: payload.notificationType.rawValue,
                subtype: payload.subtype?.rawValue, originalTransactionId: chain, signedDate: payload.signedDate,
                on: connection)
            else { return (Outcome.duplicate, [UUID: Int64]()) }
            guard let chain else { return (Outcome.informational, [UUID: Int64]()) }
            return try await apply(
                record: record, renewal: renewal, chain: chain, type: payload.notificationType, verified: verified,
                on: connection)
        }
        snapshots.invalidate(changed)
        logger.info("notification \(outcome.rawValue)", metadata: metadata)
        return outcome
    }

    private func apply(
        record: TransactionRecord?, renewal: RenewalInfo?, chain: String, type: NotificationType,
        verified: VerifiedNotification, on connection: PostgresConnection
    ) async throws -> (Outcome, [UUID: Int64]) {
        let environment = record?.environment ?? renewal?.environment ?? .production
        try await ownership.insertMissing([(chain, environment, owner: nil)], on: connection)
        let owner = try await ownership.lockOwners([chain], on: connection)[chain]
        var holders = try await transactions.holders(of: chain, on: connection)
        var newEvents: [NewEvent] = []
        if holders.isEmpty {
            guard let token = record?.appAccountToken,
                let account = try await accounts.find(appAccountToken: token, on: connection)?.accountId
            else {
                try await keepUnclaimed(verified, chain: chain, on: connection)
                return (.unclaimed, [:])
            }
            if owner?.accountId != account {
                try await ownership.setOwner(chain, to: account, boundByToken: true, on: connection)
                newEvents.append(NewEvent(
                    accountId: account, kind: .purchaseClaimed, originalTransactionId: chain, toAccountId: account,
                    reason: "a Server Notification for a purchase whose appAccountToken names this account"))
            }
            holders = [account]
        }

        var changedHolders: Set<UUID> = []
        for holder in holders {
            _ = try await accounts.lockVersion(holder, on: connection)
            let before = Ledger(records: try await transactions.chain(chain, of: holder, on: connection))
            var holderChanged = !newEvents.filter { $0.accountId == holder }.isEmpty
            if let record {
                let inserted = try await transactions.insert([(holder, record)], on: connection)
                if !inserted.isEmpty {
                    holderChanged = true
                    if type == .didRenew {
                        newEvents.append(NewEvent(
                            accountId: holder, kind: .renewed, originalTransactionId: chain,
                            transactionId: record.transactionId, reason: "DID_RENEW from the App Store"))
                    }
                }
            }
            if let renewal {
                let current = try await renewals.renewalInfo(of: holder, chain: chain, on: connection)
                var merged = Ledger(records: [], renewalInfos: current.map { [$0] } ?? [])
                if merged.merge(renewal) != MergeOutcome.unchanged {
                    try await renewals.store(renewal, for: holder, on: connection)
                    holderChanged = true
                }
            }
            if type == .expired || type == .gracePeriodExpired {
                newEvents.append(NewEvent(
                    accountId: holder, kind: .expired, originalTransactionId: chain, transactionId: record?.transactionId,
                    reason: "\(type.rawValue) from the App Store"))
            }
            let after = Ledger(records: try await transactions.chain(chain, of: holder, on: connection))
            newEvents += SyncTransaction.revocationEvents(account: holder, before: before, after: after)
            if holderChanged { changedHolders.insert(holder) }
        }
        try await events.append(newEvents, on: connection)
        return (.processed, try await accounts.bumpVersions(changedHolders, on: connection))
    }

    /// Keeps the signed versions until an account presents the purchase.
    private func keepUnclaimed(_ verified: VerifiedNotification, chain: String, on connection: PostgresConnection) async throws {
        if let transaction = verified.transaction {
            try await notifications.storeUnclaimed(
                originalTransactionId: chain, kind: .transaction, signedDate: transaction.record.signedDate,
                signedPayload: transaction.record.signedTransaction ?? "", on: connection)
        }
        if let renewal = verified.renewalInfo, let jws = renewal.renewalInfo.signedRenewalInfo {
            try await notifications.storeUnclaimed(
                originalTransactionId: chain, kind: .renewalInfo, signedDate: renewal.renewalInfo.signedDate,
                signedPayload: jws, on: connection)
        }
    }
}
