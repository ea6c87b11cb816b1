public import Foundation
public import PostgresLibPQ

/// PostgreSQL as a scaled-out deployment runs it, for tests: a primary, a hot standby that
/// streams from it (`pg_basebackup -R`), and PgBouncer in transaction pooling in front of the
/// primary. One set per test process, started on first use and removed when the process exits;
/// every call of ``makeDatabase(migrationsDirectory:)`` gets a database of its own in it.
///
/// ```swift
/// let databases = try await TestReplication.makeDatabase(migrationsDirectory: schema)
/// // databases.pooled (PgBouncer), databases.primary (direct), databases.standby (read only)
/// ```
public enum TestReplication {
    /// One database, by the three ways to reach it.
    public struct Databases: Sendable {
        /// Through PgBouncer (`pool_mode = transaction`) to the primary; marked
        /// ``PostgresLibPQ/PostgresConfiguration/usesTransactionPooler``.
        public let pooled: PostgresConfiguration
        /// The primary, directly: for `LISTEN` and session-level locks.
        public let primary: PostgresConfiguration
        /// The hot standby: read only, and behind the primary by its replication lag.
        public let standby: PostgresConfiguration
    }

    private struct Servers: Sendable {
        let primary: EmbeddedPostgres
        let standby: EmbeddedPostgres
        let pooler: EmbeddedPgBouncer
    }

    private static let shared = Task<Servers, any Error> {
        let primary = try await EmbeddedPostgres.temporary(prefix: "\(TestCluster.prefix)-primary", logger: TestCluster.logger)
        let standby = try await primary.temporaryStandby(prefix: "\(TestCluster.prefix)-standby")
        let pooler = try await EmbeddedPgBouncer.temporary(
            prefix: "storesync-test-pgbouncer", server: primary, logger: TestCluster.logger)
        return Servers(primary: primary, standby: standby, pooler: pooler)
    }
    private static let templates = MigratedTemplates()

    /// Creates a database on the primary and waits until the standby has it.
    ///
    /// - Parameter migrationsDirectory: The `NNNN_name.sql` files to apply; nil for an empty database.
    /// - Returns: The database through the pooler, on the primary and on the standby.
    /// - Throws: ``PostgresLibPQ/EmbeddedPostgresError`` when a server cannot start (PgBouncer
    ///   not installed: `scripts/install-deps.sh`), ``PostgresLibPQ/PostgresError`` otherwise.
    public static func makeDatabase(migrationsDirectory: URL? = nil) async throws -> Databases {
        let servers = try await shared.value
        var template: String?
        if let migrationsDirectory {
            template = try await TestCluster.migratedTemplate(for: migrationsDirectory, in: servers.primary, templates: templates)
        }
        let name = "replicated_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
        try await servers.primary.createDatabase(named: name, template: template)
        var primary = servers.primary.configuration
        primary.database = name
        var standby = servers.standby.configuration
        standby.database = name
        var pooled = servers.pooler.configuration
        pooled.database = name
        try await waitForStandby()
        return Databases(pooled: pooled, primary: primary, standby: standby)
    }

    /// Starts another PgBouncer in front of the primary, for a test that needs other settings
    /// (one server connection, session pooling); stop it when done (the process's exit does too).
    ///
    /// - Parameters:
    ///   - name: Distinguishes it from the process's other poolers.
    ///   - options: Its settings.
    /// - Returns: The running pooler; its ``PostgresLibPQ/EmbeddedPgBouncer/configuration`` reaches
    ///   the primary's `postgres` database (set `database` for another).
    /// - Throws: What ``PostgresLibPQ/EmbeddedPgBouncer/start()`` throws.
    public static func extraPooler(named name: String, options: EmbeddedPgBouncer.Options) async throws -> EmbeddedPgBouncer {
        try await EmbeddedPgBouncer.temporary(
            prefix: "storesync-test-pgbouncer-\(name)", server: try await shared.value.primary, options: options,
            logger: TestCluster.logger)
    }

    /// Makes and starts another standby of the primary, for a test that pauses or stops it
    /// (doing that to the shared standby would hold up every suite beside it); stop it when done.
    ///
    /// - Parameter name: Distinguishes it from the process's other standbys.
    /// - Returns: The running standby.
    /// - Throws: ``PostgresLibPQ/EmbeddedPostgresError`` when it cannot be made or started.
    public static func extraStandby(named name: String) async throws -> EmbeddedPostgres {
        try await shared.value.primary.temporaryStandby(prefix: "\(TestCluster.prefix)-standby-\(name)")
    }

    /// Waits until the standby has replayed everything the primary has written so far.
    ///
    /// - Throws: ``PostgresLibPQ/PostgresError`` when either server does not answer, or
    ///   `CancellationError`; a standby that never catches up makes it wait until cancelled.
    public static func waitForStandby() async throws {
        let servers = try await shared.value
        let written = try await position(on: servers.primary.configuration, "pg_current_wal_insert_lsn()")
        while try await position(on: servers.standby.configuration, "pg_last_wal_replay_lsn()") < written {
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    private static func position(on configuration: PostgresConfiguration, _ function: StaticString) async throws -> Int64 {
        let pool = ConnectionPool(configuration: configuration, size: 1, logger: TestCluster.logger)
        do {
            let position = try await pool.withConnection { connection in
                try await connection.query("SELECT (\(unescaped: function) - '0/0'::pg_lsn)::bigint").first?.decode(Int64.self)
            }
            await pool.shutdown()
            return position ?? 0
        } catch {
            await pool.shutdown()
            throw error
        }
    }
}
