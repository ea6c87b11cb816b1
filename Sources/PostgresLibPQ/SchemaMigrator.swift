public import Foundation
public import Logging

/// Applies the `NNNN_name.sql` files of a directory, in order, each once.
///
/// Each migration runs in its own transaction together with its row in `schema_migrations`
/// (name, checksum, time), so a failed one leaves no trace. A migration whose statements changed
/// after it was applied stops the run with an error naming it; its comments may be mended (the
/// checksum covers the statements only, see ``Migration/checksum``). Processes migrating the same database
/// at once take turns on a PostgreSQL advisory lock. Scripts must not contain BEGIN or COMMIT.
public struct SchemaMigrator: Sendable {
    /// The directory holding the migration files.
    public let directory: URL
    let logger: Logger

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
    /// - Parameter pool: The pool of the database to migrate.
    /// - Returns: The names of the migrations applied now, in order (empty when up to date).
    /// - Throws: ``SchemaMigrationError`` (a changed or failed migration, bad files) or ``PostgresError``.
    @discardableResult
    public func migrate(_ pool: ConnectionPool) async throws -> [String] {
        let migrations = try migrations()
        return try await pool.withConnection { connection in
            try await withoutTimeouts(on: connection) {
                try await connection.execute("SELECT pg_advisory_lock(\(Self.advisoryLockKey))")
                do {
                    let applied = try await applyPending(migrations, on: connection)
                    try await connection.execute("SELECT pg_advisory_unlock(\(Self.advisoryLockKey))")
                    return applied
                } catch {
                    // Ending the session would release the lock too; a dead connection does.
                    _ = try? await connection.execute("SELECT pg_advisory_unlock(\(Self.advisoryLockKey))")
                    throw error
                }
            }
        }
    }

    /// Runs `body` with the session's `statement_timeout` and `lock_timeout` off, then puts back
    /// what the connection had: a migration may take as long as it needs (an index on a large
    /// table), and a second process waits on the advisory lock for as long as the first
    /// migrates, whatever timeouts the pool's connections carry for ordinary statements.
    private func withoutTimeouts<R: Sendable>(on connection: PostgresConnection, _ body: () async throws -> R) async throws -> R {
        let saved = try await connection.query(
            "SELECT current_setting('statement_timeout'), current_setting('lock_timeout')"
        ).first.map { try $0.decode((String, String).self) }
        try await connection.execute("SELECT set_config('statement_timeout', '0', false), set_config('lock_timeout', '0', false)")
        let restore = {
            guard let (statement, lock) = saved else { return }
            try await connection.execute(
                "SELECT set_config('statement_timeout', \(statement), false), set_config('lock_timeout', \(lock), false)")
        }
        do {
            let result = try await body()
            try await restore()
            return result
        } catch {
            try? await restore()
            throw error
        }
    }

    private func applyPending(_ migrations: [Migration], on connection: PostgresConnection) async throws -> [String] {
        try await connection.execute("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                name       text        PRIMARY KEY,
                checksum   text        NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now()
            )
            """)
        var applied: [String: String] = [:]
        for row in try await connection.query("SELECT name, checksum FROM schema_migrations") {
            let (name, checksum) = try row.decode((String, String).self)
            applied[name] = checksum
        }
        var newlyApplied: [String] = []
        for migration in migrations {
            if let checksum = applied[migration.name] {
                guard migration.matches(recorded: checksum) else {
                    throw SchemaMigrationError.checksumMismatch(name: migration.name, applied: checksum, file: migration.checksum)
                }
                if checksum != migration.checksum {
                    try await connection.execute(
                        "UPDATE schema_migrations SET checksum = \(migration.checksum) WHERE name = \(migration.name)")
                }
                continue
            }
            try await apply(migration, on: connection)
            newlyApplied.append(migration.name)
        }
        return newlyApplied
    }

    private func apply(_ migration: Migration, on connection: PostgresConnection) async throws {
        logger.debug("applying migration", metadata: ["db.migration": "\(migration.name)"])
        try await connection.execute("BEGIN")
        do {
            try await connection.execute(script: migration.sql)
            try await connection.execute(
                "INSERT INTO schema_migrations (name, checksum) VALUES (\(migration.name), \(migration.checksum))"
            )
            try await connection.execute("COMMIT")
        } catch {
            _ = try? await connection.execute("ROLLBACK")
            if let error = error as? PostgresError {
                throw SchemaMigrationError.migrationFailed(name: migration.name, underlying: error)
            }
            throw error
        }
    }
}
