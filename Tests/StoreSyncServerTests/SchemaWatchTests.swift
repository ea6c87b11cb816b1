import Foundation
import PostgresLibPQ
import StoreSyncServer
import StoreSyncTesting
import Testing

/// A rolling deploy whose new build migrated the database beyond what the running build can
/// serve: the running server stops, and it cannot start again on that database.
@Suite struct SchemaWatchTests {
    @Test func aServerStopsOnceANewerBuildMigratedBeyondItAndCannotStartAgain() async throws {
        let server = try await TestServer.start(configure: { $0.schemaWatchInterval = .milliseconds(50) })
        // What a newer build's migration, not marked compatible, leaves behind.
        try await server.database.withConnection { connection in
            try await connection.execute(
                """
                INSERT INTO schema_migrations (name, checksum, older_binaries_compatible)
                VALUES ('9999_moved_elsewhere', 'a newer build''s', false)
                """)
        }
        let ended = await server.ending()
        await server.stop()
        guard case .databaseNewerThanBinary(let names)? = ended as? SchemaMigrationError else {
            Issue.record("the server should have stopped naming the migration, ended with \(String(describing: ended))")
            return
        }
        #expect(names == ["9999_moved_elsewhere"])

        let restart = await #expect(throws: SchemaMigrationError.self) {
            let again = try await TestServer.start(database: server.setup.database)
            await again.stop()
        }
        #expect(restart?.description.contains("9999_moved_elsewhere") == true)
    }

    /// A newer build's migration marked compatible (it adds only what older builds never read)
    /// leaves older servers starting and serving.
    @Test func aMigrationMarkedCompatibleLeavesOlderServersServing() async throws {
        let server = try await TestServer.start(configure: { $0.schemaWatchInterval = .milliseconds(50) })
        try await server.database.withConnection { connection in
            try await connection.execute(
                """
                INSERT INTO schema_migrations (name, checksum, older_binaries_compatible)
                VALUES ('9999_added_elsewhere', 'a newer build''s', true)
                """)
        }
        let second = try await TestServer.secondInstance(of: server)
        #expect(try await second.send("GET", "/health/ready").status == 200)
        #expect(try await server.send("GET", "/health/ready").status == 200)
        await second.stop()
        await server.stop()
    }
}
