import AppStorePayloads
import AppStoreVerification
import Foundation
import Logging
import Metrics
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import Synchronization

/// App Store Server Notifications V2: refunds, renewals and revocations land on every
/// account holding the purchase without any device online. Processed once per
/// notificationUUID, in one database transaction with its effects.
struct NotificationService: Sendable {
    let pool: ConnectionPool
    let verifier: SignedDataVerifier
    /// Which environments' notifications take effect (the rule uploads follow too).
    let environments: EnvironmentRule
    let snapshots: SnapshotService
    let events: EventRepository
    let now: @Sendable () -> Date
    let logger: Logger

    /// How long after Apple signed them notifications take effect
    /// (`storesync_appstore_notification_lag_seconds`): seconds while Apple's posts arrive, hours
    /// while it retries a backlog after an outage or recovery replays its history.
    static let lagLabel = "storesync_appstore_notification_lag_seconds"
    /// The buckets of ``lagLabel``, 1 s to 3 days (Apple retries for about three).
    static let lagBuckets: [Double] = [1, 5, 15, 60, 300, 900, 3_600, 6 * 3_600, 24 * 3_600, 3 * 24 * 3_600]

    /// What became of a notification.
    enum Outcome: String, Sendable, CaseIterable {
        case processed
        case duplicate
        case unclaimed
        case informational
        /// Verified, but from an environment this server does not take (``EnvironmentRule``):
        /// answered 200 so Apple stops sending it, with no effect.
        case refused
    }

    private let notifications = NotificationRepository()
    /// Writes Apple's versions with this server's event repository (which queues webhooks).
    private var writer: AppleVersionsWriter { AppleVersionsWriter(events: events, verifier: verifier, logger: logger) }

    /// Verifies a notification Apple posted, then processes it.
    ///
    /// - Parameter request: The posted `{signedPayload}`.
    /// - Returns: What became of it.
    /// - Throws: ``VerificationError/refused(field:detail:)`` when the payload does not verify.
    func receive(_ request: NotificationRequest) async throws -> Outcome {
        let verified: VerifiedNotification
        do {
            verified = try await verifier.verifyNotification(request.signedPayload)
        } catch {
            throw VerificationError.refused(field: "signedPayload", detail: "the notification was refused: \(error)")
        }
        return try await process(verified)
    }

    /// Counts a processed notification by type and outcome (`storesync_appstore_notifications_total`).
    private static func count(_ type: NotificationType, _ outcome: Outcome) {
        Counter(
            label: "storesync_appstore_notifications_total", dimensions: [("type", typeLabel(type)), ("outcome", outcome.rawValue)]
        ).increment()
    }

    /// The most distinct `type` labels the counter takes beyond the documented types.
    static let undocumentedTypeLabelLimit = 32
    private static let undocumentedTypeLabels = Mutex<Set<String>>([])

    /// A notification's `type` label: Apple's spelling for every documented type; for others,
    /// their spelling until ``undocumentedTypeLabelLimit`` distinct ones were seen, then `other`.
    /// Types Apple adds later are counted by name, while a flood of invented ones (possible only
    /// under `STORESYNC_ALLOW_UNVERIFIED`, never in Production) cannot grow `/metrics` without
    /// bound, nor push a documented type into `other`.
    static func typeLabel(_ type: NotificationType) -> String {
        if NotificationType.documented.contains(type) { return type.rawValue }
        return undocumentedTypeLabels.withLock { seen in
            if seen.contains(type.rawValue) { return type.rawValue }
            guard seen.count < undocumentedTypeLabelLimit else { return "other" }
            seen.insert(type.rawValue)
            return type.rawValue
        }
    }

    /// Records when a notification that took effect was signed against now (``lagLabel``) and
    /// when the last one did (`storesync_appstore_notification_last_processed_timestamp_seconds`).
    private func recordTakingEffect(signedAt signedDate: Date) {
        let now = now()
        Recorder(label: Self.lagLabel).record(max(0, now.timeIntervalSince(signedDate)))
        Gauge(label: "storesync_appstore_notification_last_processed_timestamp_seconds").record(now.timeIntervalSince1970)
    }

    /// Processes a verified notification — one Apple posted, or one recovered from its
    /// notification history — once per notificationUUID: a UUID already processed changes
    /// nothing and answers ``Outcome/duplicate``.
    ///
    /// - Parameter verified: The notification, verified by the verifier of its environment.
    /// - Returns: What became of it.
    func process(_ verified: VerifiedNotification) async throws -> Outcome {
        let payload = verified.payload
        var metadata: Logger.Metadata = [
            "appstore.notification_type": "\(payload.notificationType.rawValue)",
            "appstore.notification_uuid": "\(payload.notificationUUID)",
        ]
        let record = verified.transaction?.record
        let renewal = verified.renewalInfo?.renewalInfo
        let chain = record?.originalTransactionId ?? renewal?.originalTransactionId
        if let chain { metadata["appstore.original_transaction_id"] = "\(chain)" }
        if let environment = record?.environment ?? renewal?.environment, let refusal = environments.refusal(of: environment) {
            logger.info("notification \(Outcome.refused.rawValue): \(refusal)", metadata: metadata)
            Self.count(payload.notificationType, .refused)
            return .refused
        }

        let (outcome, changed) = try await pool.withRetryingTransaction { connection in
            guard try await notifications.markProcessed(
                uuid: payload.notificationUUID, type: payload.notificationType.rawValue,
                subtype: payload.subtype?.rawValue, originalTransactionId: chain, signedDate: payload.signedDate,
                on: connection)
            else { return (Outcome.duplicate, [UUID: Int64]()) }
            guard let chain else { return (Outcome.informational, [UUID: Int64]()) }
            let versions = AppleVersions(
                originalTransactionId: chain, transactions: record.map { [$0] } ?? [], renewalInfo: renewal,
                source: .notification(payload.notificationType))
            let applied = try await writer.write(versions, on: connection)
            return (applied.isUnclaimed ? Outcome.unclaimed : .processed, applied.changedAccounts)
        }
        snapshots.invalidate(changed)
        Self.count(payload.notificationType, outcome)
        if outcome != .duplicate { recordTakingEffect(signedAt: payload.signedDate) }
        if payload.notificationType == .test, outcome != .duplicate {
            logger.notice("App Store test notification received", metadata: metadata)
        } else {
            logger.info("notification \(outcome.rawValue)", metadata: metadata)
        }
        return outcome
    }
}
