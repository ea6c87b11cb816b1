import ArgumentParser
import Logging
import PostgresLibPQ
import StoreSyncServer

/// Applies the schema migrations and exits.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply the SQL migrations in Schema/ to the database.",
        discussion: "Uses DATABASE_LISTEN_URL when it is set (a direct connection past PgBouncer), else DATABASE_URL, "
            + "or the embedded cluster under STORESYNC_DATA_DIR when that is unset. Reads only the database, "
            + "STORESYNC_SCHEMA_DIR and LOG_* settings: a migration job needs no App Store setting or key."
    )

    @OptionGroup var options: ConfigurationOptions

    func run() async throws {
        let reader = try options.reader()
        let (schema, logger, database) = try await StartupFailure.reporting {
            let settings = try MigrationSettings(reader: reader)
            let logger = ProcessLogging.makeLogger(level: settings.logLevel, format: settings.logFormat)
            let schema = try SchemaLocation.resolve(configured: settings.schemaDirectory)
            return (schema, logger, try await ServerDatabase.start(for: settings.database, logger: logger))
        }
        let pool = ConnectionPool(configuration: database.migrationConfiguration, size: 1, logger: logger)
        do {
            let applied = try await SchemaMigrator(directory: schema.directory, logger: logger).migrate(pool)
            print(applied.isEmpty ? "storesync: the schema is up to date" : "storesync: applied \(applied.joined(separator: ", "))")
            await pool.shutdown()
            await database.stop()
        } catch {
            await pool.shutdown()
            await database.stop()
            throw StartupFailure.exit("migration failed: \(StartupFailure.operatorText(error))")
        }
    }
}
