import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import StoreSyncServer
import StoreSyncTesting
import Testing

/// `STORESYNC_MIGRATE_ON_START=false`: migrations run as their own job (`storesync migrate`),
/// never inside a server a liveness probe may kill halfway; a server that finds the database
/// behind its build refuses to start, naming what is missing, and changes nothing.
@Suite struct MigrateOnStartTests {
    @Test func aServerThatDoesNotMigrateRefusesADatabaseBehindItsBuildAndServesOnceMigrated() async throws {
        let earlier = try TestDatabase.migrations(before: "0014")
        defer { try? FileManager.default.removeItem(at: earlier) }
        let database = try await TestCluster.makeDatabase(migrationsDirectory: earlier)

        let refusal = await #expect(throws: ConfigurationError.self) {
            let server = try await TestServer.start(database: database, configure: { $0.migrateOnStart = false })
            await server.stop()
        }
        #expect(refusal?.setting.environmentName == "STORESYNC_MIGRATE_ON_START")
        #expect(refusal?.description.contains("0014_catalog_file_definitions") == true, "\(String(describing: refusal))")
        #expect(refusal?.description.contains("storesync migrate") == true)

        let pool = ConnectionPool(configuration: database, size: 1, logger: TestCluster.logger)
        let recorded = try await pool.withConnection { connection in
            try await connection.query("SELECT count(*) FROM schema_migrations WHERE name LIKE '0014%'").first?.decode(Int.self)
        }
        #expect(recorded == 0, "the refusing server applied nothing")

        // The migration job runs; the server starts and serves without migrating.
        #expect(try await SchemaMigrator(directory: TestDatabase.schemaDirectory, logger: TestCluster.logger).migrate(pool) == [
            "0014_catalog_file_definitions"
        ])
        await pool.shutdown()
        let server = try await TestServer.start(database: database, configure: { $0.migrateOnStart = false })
        #expect(try await server.send("GET", "/health/ready").status == 200)
        await server.stop()
    }

    @Test func aServerThatDoesNotMigrateStillRefusesADatabaseANewerBuildMigratedBeyondIt() async throws {
        let database = try await TestDatabase.makeDatabase()
        let pool = ConnectionPool(configuration: database, size: 1, logger: TestCluster.logger)
        try await pool.withConnection { connection in
            try await connection.execute(
                "INSERT INTO schema_migrations (name, checksum, older_binaries_compatible) VALUES ('9999_moved_elsewhere', 'x', false)")
        }
        await pool.shutdown()
        let refusal = await #expect(throws: SchemaMigrationError.self) {
            let server = try await TestServer.start(database: database, configure: { $0.migrateOnStart = false })
            await server.stop()
        }
        #expect(refusal?.description.contains("9999_moved_elsewhere") == true)
    }
}
