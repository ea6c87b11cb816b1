public import Foundation
public import Logging
public import PostgresLibPQ

/// Real PostgreSQL for tests: one throwaway cluster per test process, a fresh database per call.
///
/// The cluster starts on first use (in the temporary directory, no TCP port, no fsync) and is
/// killed and deleted when the test process exits; clusters of crashed earlier runs are cleaned
/// up first. Each ``make(migrationsDirectory:poolSize:logger:)`` creates a uniquely named
/// database, copied from a template that has the migrations applied once, so suites never
/// see each other's rows and may run in parallel.
///
/// ```swift
/// try await TestDatabase.withPool(migrationsDirectory: TestDatabase.schemaDirectory) { pool in
///     // a migrated, empty database of its own
/// }
/// ```
///
/// Each database takes several megabytes until it is dropped: prefer
/// ``withPool(migrationsDirectory:poolSize:logger:actorIsolation:_:)``, which drops it afterwards.
public enum TestDatabase {
    /// The repository's `Schema/` directory, the real migrations.
    public static let schemaDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Schema")

    private static let sharedCluster = Task<EmbeddedPostgres, any Error> {
        try await EmbeddedPostgres.temporary(prefix: "storesync-test-pg", logger: Logger(label: "storesync.test-database"))
    }
    private static let templates = TestDatabaseTemplates()
    private static let creationGate = TestDatabaseGate()

    /// The process's cluster, started on first use.
    ///
    /// - Returns: The running cluster.
    /// - Throws: ``EmbeddedPostgresError`` when PostgreSQL cannot start (for example, not installed).
    public static func cluster() async throws -> EmbeddedPostgres {
        try await sharedCluster.value
    }

    /// Creates a fresh database, with the migrations of `migrationsDirectory` applied, and a pool for it.
    ///
    /// - Parameters:
    ///   - migrationsDirectory: The `NNNN_name.sql` files to apply; nil for an empty database.
    ///   - poolSize: The pool's size.
    ///   - logger: The pool's logger.
    /// - Returns: A pool for the new database (shut it down when done) and its configuration.
    /// - Throws: ``EmbeddedPostgresError``, ``SchemaMigrationError`` or ``PostgresError``.
    public static func make(
        migrationsDirectory: URL? = nil, poolSize: Int = 4, logger: Logger = Logger(label: "storesync.test-database")
    ) async throws -> (ConnectionPool, PostgresConfiguration) {
        let configuration = try await makeDatabase(migrationsDirectory: migrationsDirectory)
        return (ConnectionPool(configuration: configuration, size: poolSize, logger: logger), configuration)
    }

    /// Runs `body` with a pool on a fresh database, then shuts the pool down and drops the database.
    ///
    /// - Parameters:
    ///   - migrationsDirectory: The migrations to apply; nil for an empty database.
    ///   - poolSize: The pool's size.
    ///   - logger: The pool's logger.
    ///   - actorIsolation: The caller's actor, inherited so `body` runs where it was written.
    ///   - body: The test's work.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or what creating the database throws.
    @discardableResult
    public static func withPool<R: Sendable>(
        migrationsDirectory: URL? = nil, poolSize: Int = 4, logger: Logger = Logger(label: "storesync.test-database"),
        actorIsolation: isolated (any Actor)? = #isolation,
        _ body: (ConnectionPool) async throws -> R
    ) async throws -> R {
        let (pool, configuration) = try await make(migrationsDirectory: migrationsDirectory, poolSize: poolSize, logger: logger)
        let result: Result<R, any Error>
        do {
            result = .success(try await body(pool))
        } catch {
            result = .failure(error)
        }
        await pool.shutdown()
        try? await drop(configuration)
        return try result.get()
    }

    /// Creates a fresh database like ``make(migrationsDirectory:poolSize:logger:)``, without a pool.
    ///
    /// - Parameter migrationsDirectory: The migrations to apply; nil for an empty database.
    /// - Returns: The new database's configuration (superuser, unix socket).
    /// - Throws: ``EmbeddedPostgresError``, ``SchemaMigrationError`` or ``PostgresError``.
    public static func makeDatabase(migrationsDirectory: URL? = nil) async throws -> PostgresConfiguration {
        let cluster = try await cluster()
        var migratedTemplate: String?
        if let migrationsDirectory {
            migratedTemplate = try await templateDatabase(for: migrationsDirectory, in: cluster)
        }
        let template = migratedTemplate
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(20)
        try await creationGate.serialize {
            try await cluster.createDatabase(named: name, template: template)
        }
        var configuration = cluster.configuration
        configuration.database = name
        return configuration
    }

    /// Drops a database made by ``make(migrationsDirectory:poolSize:logger:)``; shut its pool down first.
    ///
    /// Optional: every database goes away with the cluster when the test process exits.
    ///
    /// - Parameter configuration: The configuration ``make(migrationsDirectory:poolSize:logger:)`` returned.
    /// - Throws: ``PostgresError`` when the drop fails.
    public static func drop(_ configuration: PostgresConfiguration) async throws {
        try await cluster().dropDatabase(named: configuration.database)
    }

    /// The template for a migrations directory: created and migrated once, then only copied.
    private static func templateDatabase(for directory: URL, in cluster: EmbeddedPostgres) async throws -> String {
        try await templates.template(for: directory.standardizedFileURL.path) { name in
            try await creationGate.serialize { try await cluster.createDatabase(named: name) }
            var configuration = cluster.configuration
            configuration.database = name
            let logger = Logger(label: "storesync.test-database")
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

/// One template database per migrations directory, created by the first caller.
actor TestDatabaseTemplates {
    private var tasks: [String: Task<String, any Error>] = [:]

    func template(for key: String, create: @escaping @Sendable (String) async throws -> Void) async throws -> String {
        if let existing = tasks[key] { return try await existing.value }
        let name = "template_\(tasks.count + 1)"
        let task = Task<String, any Error> {
            try await create(name)
            return name
        }
        tasks[key] = task
        return try await task.value
    }
}

/// Runs CREATE DATABASE calls one at a time: concurrent copies of one template can collide.
actor TestDatabaseGate {
    private var busy = false
    private var queue: [CheckedContinuation<Void, Never>] = []

    func serialize<R: Sendable>(_ body: @Sendable () async throws -> R) async throws -> R {
        if busy {
            await withCheckedContinuation { queue.append($0) }
        }
        busy = true
        defer {
            if queue.isEmpty { busy = false } else { queue.removeFirst().resume() }
        }
        return try await body()
    }
}
