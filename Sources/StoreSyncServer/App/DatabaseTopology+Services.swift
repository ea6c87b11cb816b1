import Foundation
import Logging
import PostgresLibPQ

extension DatabaseTopology {
    /// Applies the migrations on the direct connection when there is one (a pooler in front
    /// of the primary is fine too: the migrator holds its lock per transaction).
    func migrate(schema: URL, primary: ConnectionPool, logger: Logger) async throws -> [String] {
        let migrator = SchemaMigrator(directory: schema, logger: logger)
        guard let direct, direct != self.primary else { return try await migrator.migrate(primary) }
        let pool = ConnectionPool(configuration: direct, size: 1, logger: logger)
        do {
            let applied = try await migrator.migrate(pool)
            await pool.shutdown()
            return applied
        } catch {
            await pool.shutdown()
            throw error
        }
    }
}

extension ChangeFeed {
    /// The feed these connections allow: `LISTEN` on the direct connection, or a poll through
    /// the primary's pool every `DATABASE_CHANGE_POLL_MS` when only a transaction pooler is known.
    convenience init(
        topology: DatabaseTopology, pool: ConnectionPool, configuration: ServerConfiguration, logger: Logger
    ) throws {
        if let direct = topology.direct {
            try self.init(database: direct, logger: logger)
        } else {
            logger.notice("no direct connection for LISTEN (DATABASE_LISTEN_URL): caches are checked by polling")
            self.init(polling: pool, every: .milliseconds(configuration.databaseChangePollMilliseconds), logger: logger)
        }
    }
}

extension StandbyReads {
    /// The standby's pool and monitor (both services), when `DATABASE_READ_URL` names one: the
    /// monitor measures four times per `DATABASE_READ_MAX_LAG_MS` (at least every second), so
    /// a healthy standby reads well within the bound.
    static func services(
        topology: DatabaseTopology, primary: ConnectionPool, configuration: ServerConfiguration, logger: Logger
    ) -> (pool: ConnectionPool, monitor: StandbyMonitor, maxLag: Duration)? {
        guard let standby = topology.standby else { return nil }
        let pool = ConnectionPool(
            configuration: standby.withServerSessionSettings(configuration), size: configuration.databasePoolSize, logger: logger)
        let maxLag = Duration.milliseconds(configuration.databaseReadMaxLagMilliseconds)
        let interval = min(max(maxLag / 4, .milliseconds(50)), .seconds(1))
        let monitor = StandbyMonitor(primary: primary, standby: pool, interval: interval, logger: logger)
        return (pool, monitor, maxLag)
    }
}
