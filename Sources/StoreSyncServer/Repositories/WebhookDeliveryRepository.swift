import Foundation
import PostgresLibPQ
import StoreSyncAPI

/// A pending delivery claimed for one attempt, with the event it carries.
struct ClaimedDelivery: Sendable {
    let event: WebhookEvent
    /// This attempt's number (1 for the first); the result is recorded only while it is still
    /// the delivery's latest attempt.
    let attempt: Int
    /// When the delivery started waiting: its retries end a retry period later.
    let pendingSince: Date
}

/// SQL over `webhook_deliveries`, the outbound webhook's queue. Rows are written with their
/// events (``EventRepository``); this claims, records, lists and retries them.
struct WebhookDeliveryRepository: Sendable {
    /// Claims up to `limit` due deliveries, each the oldest pending one of its account, and
    /// keeps them from other servers until `leaseEnd` (an attempt that outlives its server is
    /// retried then). The last attempt's status and error are cleared: they describe an attempt
    /// that has ended.
    ///
    /// `FOR UPDATE SKIP LOCKED` lets servers claim side by side without waiting for or taking
    /// each other's rows; a delivery behind a pending one of its account is never due, so an
    /// account's events go out one after the other, in order.
    func claim(upTo limit: Int, now: Date, leaseEnd: Date, on connection: PostgresConnection) async throws
        -> [ClaimedDelivery]
    {
        try await connection.query(
            """
            WITH due AS (
                SELECT d.account_id, d.event_id FROM webhook_deliveries d
                WHERE d.state = 'pending' AND d.next_attempt_at <= \(now)
                  AND NOT EXISTS (
                      SELECT 1 FROM webhook_deliveries earlier
                      WHERE earlier.account_id = d.account_id AND earlier.state = 'pending'
                        AND earlier.event_id < d.event_id)
                ORDER BY d.event_id
                LIMIT \(limit)
                FOR UPDATE OF d SKIP LOCKED
            )
            UPDATE webhook_deliveries w
            SET attempts = w.attempts + 1, next_attempt_at = \(leaseEnd), last_attempt_at = \(now),
                last_status = NULL, last_error = NULL
            FROM due, events e
            WHERE w.account_id = due.account_id AND w.event_id = due.event_id
              AND e.account_id = w.account_id AND e.event_id = w.event_id
            RETURNING w.account_id, w.event_id, w.attempts, w.pending_since, e.kind, e.occurred_at,
                      e.original_transaction_id, e.transaction_id, e.from_account_id, e.to_account_id, e.reason
            """
        ).map { row in
            let (accountId, eventId, attempt, pendingSince, kind, occurredAt, original, transaction, from, to, reason)
                = try row.decode((UUID, Int64, Int, Date, String, Date, String?, String?, UUID?, UUID?, String).self)
            let data = WebhookEventData(
                originalTransactionId: original, transactionId: transaction, fromAccountId: from, toAccountId: to,
                reason: reason)
            let event = WebhookEvent(id: eventId, type: kind, accountId: accountId, occurredAt: occurredAt, data: data)
            return ClaimedDelivery(event: event, attempt: attempt, pendingSince: pendingSince)
        }
    }

    /// Records a 2xx answer.
    ///
    /// - Returns: Whether it was recorded: `false` when the claim had ended and the delivery
    ///   was claimed again (its result is the newer attempt's to record).
    @discardableResult
    func markDelivered(_ delivery: ClaimedDelivery, status: Int, at now: Date, on connection: PostgresConnection)
        async throws -> Bool
    {
        try await connection.execute(
            """
            UPDATE webhook_deliveries
            SET state = 'delivered', delivered_at = \(now), last_status = \(status), last_error = NULL
            WHERE account_id = \(delivery.event.accountId) AND event_id = \(delivery.event.id)
              AND attempts = \(delivery.attempt) AND state = 'pending'
            """) == 1
    }

    /// Records a failed attempt: the delivery is due again at `retryAt`, or failed when `nil`.
    ///
    /// - Returns: Whether it was recorded (see ``markDelivered(_:status:at:on:)``).
    @discardableResult
    func markAttemptFailed(
        _ delivery: ClaimedDelivery, status: Int?, error: String, retryAt: Date?, on connection: PostgresConnection
    ) async throws -> Bool {
        try await connection.execute(
            """
            UPDATE webhook_deliveries
            SET state = CASE WHEN \(retryAt)::timestamptz IS NULL THEN 'failed' ELSE 'pending' END,
                next_attempt_at = coalesce(\(retryAt), next_attempt_at),
                last_status = \(status), last_error = \(String(error.unicodeScalars.prefix(500)))
            WHERE account_id = \(delivery.event.accountId) AND event_id = \(delivery.event.id)
              AND attempts = \(delivery.attempt) AND state = 'pending'
            """) == 1
    }
}
