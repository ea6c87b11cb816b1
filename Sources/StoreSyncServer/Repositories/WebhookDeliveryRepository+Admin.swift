import Foundation
import PostgresLibPQ
import StoreSyncAPI

/// What an operator's retry found.
enum WebhookRetryOutcome: Sendable, Equatable {
    /// Pending again, due at once.
    case retried(WebhookDelivery)
    /// It is pending already: it is attempted on its own.
    case alreadyPending
    /// There is no delivery with this id.
    case notFound
}

/// How many deliveries wait and fail, for the metrics.
struct WebhookQueueStatistics: Sendable, Equatable {
    var pending: Int
    var failed: Int
    /// When the delivery that has waited longest started waiting; `nil` when none waits.
    var oldestPendingSince: Date?
}

extension WebhookDeliveryRepository {
    /// The listed columns of a delivery `d` joined with its event `e`.
    private static let listedColumns: StaticString = """
        d.event_id, d.account_id, e.kind, d.state, d.attempts, e.occurred_at, d.pending_since,
        CASE WHEN d.state = 'pending' AND isfinite(d.next_attempt_at) THEN d.next_attempt_at END,
        d.last_attempt_at, d.last_status, d.last_error, d.delivered_at
        """

    /// One page of deliveries in a state, in id order, after the id `after`.
    func list(state: WebhookDeliveryState, after: Int64, limit: Int, on connection: PostgresConnection) async throws
        -> [WebhookDelivery]
    {
        try await connection.query(
            """
            SELECT \(unescaped: Self.listedColumns)
            FROM webhook_deliveries d JOIN events e ON e.account_id = d.account_id AND e.event_id = d.event_id
            WHERE d.state = \(state.rawValue) AND d.event_id > \(after)
            ORDER BY d.event_id LIMIT \(limit)
            """
        ).map(Self.delivery)
    }

    /// Sets a delivered or failed delivery pending again, due at once, with its attempts counted
    /// and its retry period started afresh from `now`. Runs in the caller's transaction; the
    /// database wakes every server's delivery loop when it commits.
    func retry(id: Int64, now: Date, on connection: PostgresConnection) async throws -> WebhookRetryOutcome {
        let rows = try await connection.query(
            "SELECT state FROM webhook_deliveries WHERE event_id = \(id) FOR UPDATE")
        guard let row = rows.first else { return .notFound }
        guard try row.decode(String.self) != WebhookDeliveryState.pending.rawValue else { return .alreadyPending }
        let updated = try await connection.query(
            """
            UPDATE webhook_deliveries d
            SET state = 'pending', attempts = 0, pending_since = \(now), next_attempt_at = '-infinity', delivered_at = NULL
            FROM events e
            WHERE d.event_id = \(id) AND e.account_id = d.account_id AND e.event_id = d.event_id
            RETURNING \(unescaped: Self.listedColumns)
            """)
        return try updated.first.map { .retried(try Self.delivery($0)) } ?? .notFound
    }

    /// Pending and failed deliveries and the oldest wait, from the partial indexes.
    func statistics(on connection: PostgresConnection) async throws -> WebhookQueueStatistics {
        let rows = try await connection.query(
            """
            SELECT (SELECT count(*) FROM webhook_deliveries WHERE state = 'pending')::bigint,
                   (SELECT count(*) FROM webhook_deliveries WHERE state = 'failed')::bigint,
                   (SELECT min(pending_since) FROM webhook_deliveries WHERE state = 'pending')
            """)
        guard let row = rows.first else { return WebhookQueueStatistics(pending: 0, failed: 0, oldestPendingSince: nil) }
        let (pending, failed, oldest) = try row.decode((Int, Int, Date?).self)
        return WebhookQueueStatistics(pending: pending, failed: failed, oldestPendingSince: oldest)
    }

    private static func delivery(_ row: PostgresRow) throws -> WebhookDelivery {
        let (id, accountId, kind, state, attempts, occurredAt, pendingSince, next, last, status, error, delivered)
            = try row.decode((Int64, UUID, String, String, Int, Date, Date, Date?, Date?, Int?, String?, Date?).self)
        return WebhookDelivery(
            id: id, accountId: accountId, type: kind, state: WebhookDeliveryState(rawValue: state) ?? .pending,
            attempts: attempts, occurredAt: occurredAt, pendingSince: pendingSince, nextAttemptAt: next,
            lastAttemptAt: last, lastStatus: status, lastError: error, deliveredAt: delivered)
    }
}
