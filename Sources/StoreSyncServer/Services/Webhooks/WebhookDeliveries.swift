import Foundation
import PostgresLibPQ
import StoreSyncAPI

/// The admin routes' view of the webhook queue: deliveries by state, and an operator's retry.
struct WebhookDeliveries: Sendable {
    let pool: ConnectionPool
    let now: @Sendable () -> Date
    private let deliveries = WebhookDeliveryRepository()

    /// The most deliveries one page lists.
    static let maximumPageSize = 500

    init(pool: ConnectionPool, now: @escaping @Sendable () -> Date) {
        self.pool = pool
        self.now = now
    }

    /// One page of deliveries in `state`, in id order, after the id `after`.
    func page(state: WebhookDeliveryState, after: Int64, limit: Int) async throws -> WebhookDeliveryPage {
        let listed = try await pool.withConnection { connection in
            try await deliveries.list(state: state, after: after, limit: limit, on: connection)
        }
        return WebhookDeliveryPage(deliveries: listed, nextAfter: listed.count == limit ? listed.last?.id : nil)
    }

    /// Makes a delivered or failed delivery pending again, due at once.
    func retry(id: Int64) async throws -> WebhookRetryOutcome {
        let now = now()
        return try await pool.withTransaction { connection in
            try await deliveries.retry(id: id, now: now, on: connection)
        }
    }
}
