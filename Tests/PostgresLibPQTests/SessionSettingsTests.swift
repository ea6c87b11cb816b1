import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import Testing

/// ``PostgresConfiguration/sessionSettings`` hold on every connection, also on one that
/// replaced a connection the server closed.
@Suite struct SessionSettingsTests {
    static func setting(_ name: String, on pool: ConnectionPool) async throws -> String {
        try await pool.withConnection { connection in
            try #require(try await connection.query("SELECT current_setting(\(name))").first).decode(String.self)
        }
    }

    @Test func everyConnectionStartsWithTheSettings() async throws {
        let settings = ["plan_cache_mode": "force_generic_plan", "application_name": "it's a test"]
        try await TestCluster.withPool(size: 1, configure: { $0.sessionSettings = settings }) { (pool: ConnectionPool) async throws in
            #expect(try await Self.setting("plan_cache_mode", on: pool) == "force_generic_plan")
            #expect(try await Self.setting("application_name", on: pool) == "it's a test", "values travel as parameters")

            // The backend ends itself; the statement fails with the lost connection.
            _ = try? await pool.withConnection { connection in
                try await connection.query("SELECT pg_terminate_backend(pg_backend_pid())")
            }
            #expect(try await Self.setting("plan_cache_mode", on: pool) == "force_generic_plan", "on the new connection too")
        }
    }

    @Test func withoutSettingsTheServerDefaultsHold() async throws {
        try await TestCluster.withPool(size: 1) { (pool: ConnectionPool) async throws in
            #expect(try await Self.setting("plan_cache_mode", on: pool) == "auto")
        }
    }

    @Test func anUnknownSettingFailsTheConnectionWithItsName() async throws {
        try await TestCluster.withPool(size: 1, configure: { $0.sessionSettings = ["plan_cache_mode": "sometimes"] }) { (pool: ConnectionPool) async throws in
            let error = try await #require(throws: PostgresError.self) {
                try await pool.withConnection { try await $0.execute("SELECT 1") }
            }
            #expect(error.code == .connectionFailed)
            #expect(error.message?.contains("plan_cache_mode = sometimes") == true, "\(error)")
        }
    }
}
