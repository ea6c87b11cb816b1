public import Foundation
public import Logging
public import PostgresLibPQ

/// Real PostgreSQL for tests: one throwaway cluster per test process, a fresh database per call.
///
/// The cluster starts on first use (in the temporary directory, no TCP port, no fsync) and is
/// killed and deleted when the test process exits; clusters of crashed earlier runs are cleaned
/// up first. Every database has a unique name, so suites never see each other's rows and may
/// run in parallel. A database with migrations is copied from a template that has them applied
/// once per migrations directory.
///
/// ```swift
/// try await TestCluster.withPool(size: 2) { pool in
///     // an empty database of its own
/// }
/// ```
public enum TestCluster {
    /// The logger of the cluster and of the pools this type makes.
    public static let logger = Logger(label: "storesync.test-cluster")

    static let prefix = "storesync-test-pg"
    private static let shared = Task<EmbeddedPostgres, any Error> {
        try await EmbeddedPostgres.temporary(prefix: prefix, logger: logger)
    }
    private static let templates = MigratedTemplates()
    private static let creations = CreationGate()

    /// The process's cluster, started on first use.
    ///
    /// - Returns: The running cluster.
    /// - Throws: ``EmbeddedPostgresError`` when PostgreSQL cannot start (for example, not installed).
    public static func cluster() async throws -> EmbeddedPostgres {
        try await shared.value
    }

    /// Creates a fresh database on the process's cluster.
    ///
    /// - Parameter migrationsDirectory: The `NNNN_name.sql` files to apply; nil for an empty database.
    /// - Returns: The new database's configuration (superuser, unix socket).
    /// - Throws: ``EmbeddedPostgresError``, ``SchemaMigrationError`` or ``PostgresError``.
    public static func makeDatabase(migrationsDirectory: URL? = nil) async throws -> PostgresConfiguration {
        let cluster = try await cluster()
        var template: String?
        if let migrationsDirectory {
            template = try await migratedTemplate(for: migrationsDirectory, in: cluster)
        }
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        try await creations.serialize { [template] in
            try await cluster.createDatabase(named: name, template: template)
        }
        var configuration = cluster.configuration
        configuration.database = name
        return configuration
    }

    /// Drops a database made by ``makeDatabase(migrationsDirectory:)``, disconnecting its sessions.
    ///
    /// Optional: every database goes away with the cluster when the test process exits.
    ///
    /// - Parameter configuration: The configuration ``makeDatabase(migrationsDirectory:)`` returned.
    /// - Throws: ``PostgresError`` when the drop fails.
    public static func drop(_ configuration: PostgresConfiguration) async throws {
        try await cluster().dropDatabase(named: configuration.database)
    }

    /// Runs `body` with a pool on a fresh database, shutting the pool down afterwards.
    ///
    /// - Parameters:
    ///   - migrationsDirectory: The migrations to apply; nil for an empty database.
    ///   - size: The pool's size.
    ///   - checkoutTimeout: How long a caller waits for a free connection.
    ///   - configure: Changes to the connection settings (session settings, …).
    ///   - actorIsolation: The caller's actor, inherited so `body` runs where it was written.
    ///   - body: The test's work.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or what creating the database throws.
    @discardableResult
    public static func withPool<R: Sendable>(
        migrationsDirectory: URL? = nil,
        size: Int = 4,
        checkoutTimeout: Duration = .seconds(30),
        configure: (inout PostgresConfiguration) -> Void = { _ in },
        actorIsolation: isolated (any Actor)? = #isolation,
        _ body: (ConnectionPool) async throws -> R
    ) async throws -> R {
        var configuration = try await makeDatabase(migrationsDirectory: migrationsDirectory)
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

    /// The template for a migrations directory: created and migrated once, then only copied.
    static func migratedTemplate(
        for directory: URL, in cluster: EmbeddedPostgres, templates: MigratedTemplates = templates
    ) async throws -> String {
        try await templates.template(for: directory.standardizedFileURL.path) { name in
            try await creations.serialize { try await cluster.createDatabase(named: name) }
            var configuration = cluster.configuration
            configuration.database = name
            let pool = ConnectionPool(configuration: configuration, size: 1, logger: logger)
            do {
                try await SchemaMigrator(directory: directory, logger: logger).migrate(pool)
                await pool.shutdown()
            } catch {
                await pool.shutdown()
                throw error
            }
        }
    }
}
