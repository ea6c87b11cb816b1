import Foundation
import PostgresLibPQ
import StoreSyncCore

/// SQL over `notification_recoveries`: how far back each environment's notification history
/// has been recovered.
struct NotificationRecoveryRepository: Sendable {
    /// The end of the last complete recovery of the environment, if any.
    func recoveredThrough(_ environment: AppStoreEnvironment, on connection: PostgresConnection) async throws -> Date? {
        try await connection.query(
            "SELECT recovered_through FROM notification_recoveries WHERE environment = \(environment.rawValue)"
        ).first?.decode(Date.self)
    }

    /// Moves the environment's mark to `date`; a mark already later stays.
    func advance(_ environment: AppStoreEnvironment, to date: Date, on connection: PostgresConnection) async throws {
        try await connection.execute(
            """
            INSERT INTO notification_recoveries (environment, recovered_through) VALUES (\(environment.rawValue), \(date))
            ON CONFLICT (environment) DO UPDATE
            SET recovered_through = GREATEST(notification_recoveries.recovered_through, EXCLUDED.recovered_through),
                updated_at = now()
            """)
    }
}
