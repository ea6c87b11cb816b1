import Foundation
import Logging
import PostgresLibPQ

/// The test process's PostgreSQL: one throwaway cluster, and a fresh database per test.
enum TestCluster {
    static let logger = Logger(label: "storesync.postgres-tests")

    private static let shared = Task<EmbeddedPostgres, any Error> {
        try await EmbeddedPostgres.temporary(prefix: "storesync-pglib-test", logger: logger)
    }

    static func cluster() async throws -> EmbeddedPostgres {
        try await shared.value
    }

    /// A new, empty database on the shared cluster.
    static func makeDatabase() async throws -> PostgresConfiguration {
        let cluster = try await cluster()
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await cluster.createDatabase(named: name)
        var configuration = cluster.configuration
        configuration.database = name
        return configuration
    }

    /// Runs `body` with a pool on a fresh database, shutting the pool down afterwards.
    static func withPool<R: Sendable>(
        size: Int = 4,
        checkoutTimeout: Duration = .seconds(30),
        configure: (inout PostgresConfiguration) -> Void = { _ in },
        _ body: (ConnectionPool) async throws -> R
    ) async throws -> R {
        var configuration = try await makeDatabase()
        configure(&configuration)
        let pool = ConnectionPool(configuration: configuration, size: size, checkoutTimeout: checkoutTimeout, logger: logger)
        do {
            let result = try await body(pool)
            await pool.shutdown()
            return result
        } catch {
            await pool.shutdown()
            throw error
        }
    }
}
