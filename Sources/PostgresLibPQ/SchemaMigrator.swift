public import Foundation
public import Logging

/// Applies the `NNNN_name.sql` files of a directory, in order, each once.
///
/// Each migration runs in its own transaction together with its row in `schema_migrations`
/// (name, checksum, time), so a failed one leaves no trace. A migration whose statements changed
/// after it was applied stops the run with an error naming it; its comments may be mended (the
/// checksum covers the statements only, see ``Migration/checksum``). Processes migrating the same database
/// at once take turns on a PostgreSQL advisory lock, held by transactions only (so a connection
/// pooler in transaction mode may stand between). Scripts must not contain BEGIN or COMMIT.
///
/// Each row also records whether builds without that migration keep working on the schema
/// (``Migration/keepsOlderBinariesWorking``). A build that finds a migration it has no file for,
/// not so marked, refuses to migrate or serve (``SchemaMigrationError/databaseNewerThanBinary(names:)``),
/// and a running one asks ``migrationsThisBuildCannotRunOn(_:)`` to know when to stop: during a
/// rolling deploy, the first new server's migration would otherwise leave the old ones serving
/// a schema they misread.
public struct SchemaMigrator: Sendable {
    /// The directory holding the migration files.
    public let directory: URL
    let logger: Logger
    /// How long a migration's statement waits for a lock other sessions hold before the attempt
    /// is rolled back and tried again. A statement waiting for a table's lock holds up every
    /// later query of that table behind it (PostgreSQL queues them), so a migration that waited
    /// behind a long transaction without a bound would stop the servers' traffic on the table
    /// for as long; bounded, the traffic waits at most this long, then goes on while the
    /// migration waits for its next attempt.
    public var lockTimeout: Duration = .seconds(5)
    /// How many attempts a migration gets before it fails for want of a lock.
    public var lockAttempts = 10
    /// The wait before the second attempt; it doubles for each later one, up to 30 s.
    public var lockRetryDelay: Duration = .seconds(1)

    /// The advisory lock key all StoreSync migrators share ("StoreSyn" in ASCII).
    static let advisoryLockKey: Int64 = 0x5374_6f72_6553_796e

    /// Creates a migrator for a directory.
    ///
    /// - Parameters:
    ///   - directory: The directory of `NNNN_name.sql` files.
    ///   - logger: Receives a debug message per applied migration.
    public init(directory: URL, logger: Logger) {
        self.directory = directory
        self.logger = logger
    }

    /// The migration files, ordered by version.
    ///
    /// - Returns: The migrations; files not ending in `.sql` are ignored.
    /// - Throws: ``SchemaMigrationError`` for an unreadable directory, a bad file name or a duplicate version.
    public func migrations() throws -> [Migration] {
        let files: [URL]
        do {
            files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        } catch {
            throw SchemaMigrationError.unreadable(path: directory.path)
        }
        let migrations = try files.filter { $0.pathExtension == "sql" }.map(Migration.init(contentsOf:))
            .sorted { ($0.version, $0.name) < ($1.version, $1.name) }
        for (previous, next) in zip(migrations, migrations.dropFirst()) where previous.version == next.version {
            throw SchemaMigrationError.duplicateVersion(next.version, names: [previous.name, next.name])
        }
        return migrations
    }

    /// Applies every migration not yet recorded.
    ///
    /// Every step is a transaction that first takes the advisory lock for its own duration
    /// (`pg_advisory_xact_lock`): processes migrating at once take turns, a step that fails
    /// releases the lock with its rollback, and nothing depends on the session outliving a
    /// transaction, so the migrator works through a transaction pooler (PgBouncer's
    /// `pool_mode = transaction`) as well as on a direct connection.
    ///
    /// - Parameter pool: The pool of the database to migrate.
    /// - Returns: The names of the migrations applied now, in order (empty when up to date).
    /// - Throws: ``SchemaMigrationError`` (a changed or failed migration, bad files) or ``PostgresError``.
    @discardableResult
    public func migrate(_ pool: ConnectionPool) async throws -> [String] {
        let migrations = try migrations()
        let applied = try await pool.withTransaction { connection in
            try await lock(connection)
            return try await checkApplied(migrations, on: connection)
        }
        let known = Set(migrations.map(\.name))
        let newer = applied.filter { !known.contains($0.key) }
        let breaking = Self.breaking(recorded: applied.mapValues(\.keepsOlderBinariesWorking), known: known)
        guard breaking.isEmpty else { throw SchemaMigrationError.databaseNewerThanBinary(names: breaking) }
        if !newer.isEmpty {
            logger.notice(
                "the database holds migrations of a newer build, each marked compatible with older builds",
                metadata: ["db.migrations": "\(newer.keys.sorted())"])
        }
        var newlyApplied: [String] = []
        for migration in migrations where applied[migration.name] == nil {
            if try await apply(migration, on: pool) { newlyApplied.append(migration.name) }
        }
        return newlyApplied
    }

    /// Turns the connection's statement and lock timeouts off for this transaction, then waits
    /// for the migrators' lock, held until the transaction ends.
    ///
    /// A migration may take as long as it needs (an index on a large table), and a second
    /// process waits for the lock as long as the first migrates, whatever timeouts the pool's
    /// connections carry for ordinary statements; the transaction-local settings end with it.
    private func lock(_ connection: PostgresConnection) async throws {
        try await connection.execute("SELECT set_config('statement_timeout', '0', true), set_config('lock_timeout', '0', true)")
        try await connection.execute("SELECT pg_advisory_xact_lock(\(Self.advisoryLockKey))")
    }

    /// What `schema_migrations` records of one applied migration.
    struct AppliedMigration {
        let checksum: String
        /// `nil` when applied by a build from before the column.
        let keepsOlderBinariesWorking: Bool?
    }

    /// Creates `schema_migrations` when missing (and its compatibility column), checks every
    /// applied migration against its file (replacing checksums of mended comments and the
    /// compatibility a mended marker now says) and returns what is recorded, by name.
    private func checkApplied(_ migrations: [Migration], on connection: PostgresConnection) async throws
        -> [String: AppliedMigration]
    {
        try await connection.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                name       text        PRIMARY KEY,
                checksum   text        NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """)
        if try await connection.query(Self.compatibilityColumnExists).isEmpty {
            try await connection.execute("ALTER TABLE schema_migrations ADD COLUMN older_binaries_compatible boolean")
        }
        var applied: [String: AppliedMigration] = [:]
        for row in try await connection.query("SELECT name, checksum, older_binaries_compatible FROM schema_migrations") {
            let (name, checksum, compatible) = try row.decode((String, String, Bool?).self)
            applied[name] = AppliedMigration(checksum: checksum, keepsOlderBinariesWorking: compatible)
        }
        for migration in migrations {
            guard let recorded = applied[migration.name] else { continue }
            guard migration.matches(recorded: recorded.checksum) else {
                throw SchemaMigrationError.checksumMismatch(
                    name: migration.name, applied: recorded.checksum, file: migration.checksum)
            }
            if recorded.checksum != migration.checksum || recorded.keepsOlderBinariesWorking != migration.keepsOlderBinariesWorking {
                try await connection.execute(
                    """
                    UPDATE schema_migrations
                    SET checksum = \(migration.checksum), older_binaries_compatible = \(migration.keepsOlderBinariesWorking)
                    WHERE name = \(migration.name)
                    """)
            }
        }
        return applied
    }

    private static let compatibilityColumnExists: PostgresQuery = """
        SELECT 1 FROM pg_attribute
        WHERE attrelid = 'schema_migrations'::regclass AND attname = 'older_binaries_compatible' AND NOT attisdropped
        """

    /// The migrations a newer build applied to this database that this build cannot run on:
    /// those it has no file for and that are not marked compatible with older builds. A server
    /// asks it while it runs, and stops when the answer is not empty.
    ///
    /// - Parameter pool: The database's pool.
    /// - Returns: Their names, sorted; empty when this build may go on.
    /// - Throws: ``SchemaMigrationError`` for unreadable files, ``PostgresError``.
    public func migrationsThisBuildCannotRunOn(_ pool: ConnectionPool) async throws -> [String] {
        let known = Set(try migrations().map(\.name))
        let recorded = try await pool.withConnection { try await recordedCompatibility(on: $0) }
        return Self.breaking(recorded: recorded, known: known)
    }

    /// The migrations of this build the database has not applied, without changing anything:
    /// what a server that does not migrate at start checks before it serves.
    ///
    /// - Parameter pool: The database's pool.
    /// - Returns: Their names, in order; empty when the database is up to date.
    /// - Throws: ``SchemaMigrationError`` for bad files or a database a newer build migrated
    ///   beyond this one (``SchemaMigrationError/databaseNewerThanBinary(names:)``), ``PostgresError``.
    public func unapplied(_ pool: ConnectionPool) async throws -> [String] {
        let migrations = try migrations()
        let recorded = try await pool.withConnection { try await recordedCompatibility(on: $0) }
        let breaking = Self.breaking(recorded: recorded, known: Set(migrations.map(\.name)))
        guard breaking.isEmpty else { throw SchemaMigrationError.databaseNewerThanBinary(names: breaking) }
        return migrations.map(\.name).filter { recorded[$0] == nil }
    }

    /// What `schema_migrations` records, by name: each applied migration's compatibility with
    /// older builds (`nil` when applied before the mark existed). Read only: a database never
    /// migrated (no table) or migrated before the mark (no column) reads as such, unchanged.
    private func recordedCompatibility(on connection: PostgresConnection) async throws -> [String: Bool?] {
        guard try await !connection.query("SELECT 1 FROM pg_class WHERE oid = to_regclass('schema_migrations')").isEmpty else {
            return [:]
        }
        let hasCompatibility = try await !connection.query(Self.compatibilityColumnExists).isEmpty
        let rows = try await connection.query(
            hasCompatibility
                ? "SELECT name, older_binaries_compatible FROM schema_migrations"
                : "SELECT name, NULL::boolean FROM schema_migrations")
        var recorded: [String: Bool?] = [:]
        for row in rows {
            let (name, compatible) = try row.decode((String, Bool?).self)
            recorded[name] = compatible
        }
        return recorded
    }

    /// The one rule both ``migrate(_:)`` and ``migrationsThisBuildCannotRunOn(_:)`` apply: the
    /// applied migrations this build has no file for, unless marked compatible with older builds
    /// (`nil`, applied before the mark existed, is not).
    ///
    /// - Parameters:
    ///   - recorded: Each applied migration's recorded compatibility, by name.
    ///   - known: The names of this build's migration files.
    /// - Returns: Their names, sorted.
    static func breaking(recorded: [String: Bool?], known: Set<String>) -> [String] {
        recorded.filter { !known.contains($0.key) && $0.value != true }.keys.sorted()
    }

    /// Applies one migration with its `schema_migrations` row, in one transaction under the lock,
    /// trying again while other sessions hold a lock it needs (``lockTimeout``).
    ///
    /// - Returns: Whether it was applied now; `false` when another process applied it first.
    private func apply(_ migration: Migration, on pool: ConnectionPool) async throws -> Bool {
        var delay = lockRetryDelay
        for attempt in 1... {
            do {
                return try await applyOnce(migration, on: pool)
            } catch let error as PostgresError where error.code == .lockNotAvailable && attempt < lockAttempts {
                logger.notice(
                    "migration waited \(lockTimeout) for a lock other sessions hold; trying again in \(delay)",
                    metadata: ["db.migration": "\(migration.name)", "db.migration_attempt": "\(attempt)"])
                try await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(30))
            } catch let error as PostgresError {
                throw SchemaMigrationError.migrationFailed(name: migration.name, underlying: error)
            }
        }
        preconditionFailure("unreachable: every attempt returns or throws")
    }

    private func applyOnce(_ migration: Migration, on pool: ConnectionPool) async throws -> Bool {
        try await pool.withTransaction { connection in
            try await lock(connection)
            // The migrators' lock is held now; what the script takes from here waits no longer
            // than the timeout (transaction-local, like the lock's setting).
            let milliseconds = lockTimeout.components.seconds * 1_000 + lockTimeout.components.attoseconds / 1_000_000_000_000_000
            try await connection.execute("SELECT set_config('lock_timeout', \(String(max(1, milliseconds))), true)")
            let recorded = try await connection.query("SELECT 1 FROM schema_migrations WHERE name = \(migration.name)")
            guard recorded.isEmpty else { return false }
            logger.debug("applying migration", metadata: ["db.migration": "\(migration.name)"])
            try await connection.execute(script: migration.sql)
            try await connection.execute(
                """
                INSERT INTO schema_migrations (name, checksum, older_binaries_compatible)
                VALUES (\(migration.name), \(migration.checksum), \(migration.keepsOlderBinariesWorking))
                """)
            return true
        }
    }
}
