import Foundation
import Logging
import PostgresLibPQ
import PostgresLibPQTesting
import Testing

/// The library through PgBouncer in `pool_mode = transaction` with a single server
/// connection, so every client shares one server session: nothing may rely on the session
/// (``PostgresConfiguration/usesTransactionPooler``).
@Suite(.serialized) struct TransactionPoolerTests {
    /// Runs `body` with a database reached through a pooler of one server connection.
    static func withSingleSessionPooler(_ body: (PostgresConfiguration) async throws -> Void) async throws {
        var options = EmbeddedPgBouncer.Options()
        options.serverConnections = 1
        options.port = 6433
        let pooler = try await TestReplication.extraPooler(named: "single", options: options)
        var configuration = pooler.configuration
        configuration.database = try await TestReplication.makeDatabase().primary.database
        do {
            try await body(configuration)
        } catch {
            await pooler.stop()
            throw error
        }
        await pooler.stop()
    }

    static func withPool(_ configuration: PostgresConfiguration, size: Int = 2, _ body: (ConnectionPool) async throws -> Void) async throws {
        let pool = ConnectionPool(configuration: configuration, size: size, logger: TestCluster.logger)
        do {
            try await body(pool)
        } catch {
            await pool.shutdown()
            throw error
        }
        await pool.shutdown()
    }

    @Test func statementsWithParametersRunUnnamedSoClientsSharingASessionNeverCollide() async throws {
        try await Self.withSingleSessionPooler { configuration in
            try await Self.withPool(configuration, size: 3) { pool in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for client in 0..<6 {
                        group.addTask {
                            for round in 0..<20 {
                                let echoed = try await pool.withConnection { connection in
                                    try #require(try await connection.query("SELECT \(client * 100 + round)::int8 + \(1)").first)
                                        .decode(Int64.self)
                                }
                                #expect(echoed == Int64(client * 100 + round + 1))
                            }
                        }
                    }
                    try await group.waitForAll()
                }
            }
        }
    }

    /// What the setting guards against: two clients that name their prepared statements alike
    /// on one server session collide.
    @Test func namedStatementsWouldCollideThroughTheSamePooler() async throws {
        try await Self.withSingleSessionPooler { pooled in
            var named = pooled
            named.usesTransactionPooler = false
            try await Self.withPool(named) { first in
                try await Self.withPool(named) { second in
                    _ = try await first.withConnection { try await $0.query("SELECT \(1)::int8") }
                    await #expect(throws: PostgresError.self) {
                        _ = try await second.withConnection { try await $0.query("SELECT \(2)::int8") }
                    }
                }
            }
        }
    }

    @Test func settingsHoldInsideEachTransactionAndNeverStayWithTheServerSession() async throws {
        try await Self.withSingleSessionPooler { pooled in
            var configured = pooled
            configured.sessionSettings = ["statement_timeout": "4321ms", "lock_timeout": "1234ms"]
            try await Self.withPool(configured) { pool in
                let inside = try await pool.withTransaction { connection in
                    try #require(try await connection.query(
                        "SELECT current_setting('statement_timeout'), current_setting('lock_timeout')").first
                    ).decode((String, String).self)
                }
                #expect(inside == ("4321ms", "1234ms"))
                let outside = try await pool.withConnection { connection in
                    try #require(try await connection.query("SELECT current_setting('statement_timeout')").first).decode(String.self)
                }
                #expect(outside == "0", "the one server session keeps nothing for the next client")
            }
        }
    }

    @Test func aListenerRefusesATransactionPooler() async throws {
        try await Self.withSingleSessionPooler { pooled in
            #expect(throws: PostgresError.self) {
                _ = try PostgresListener(configuration: pooled, channels: ["storesync_test"], logger: TestCluster.logger)
            }
        }
    }

    @Test func migratorsThroughThePoolerTakeTurnsAndApplyEachMigrationOnce() async throws {
        let migrations = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: migrations, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: migrations) }
        try Data("CREATE TABLE items (id integer PRIMARY KEY);".utf8).write(to: migrations.appendingPathComponent("0001_create.sql"))
        try Data("INSERT INTO items VALUES (1);".utf8).write(to: migrations.appendingPathComponent("0002_seed.sql"))
        try await Self.withSingleSessionPooler { pooled in
            try await Self.withPool(pooled, size: 3) { pool in
                let applied = try await withThrowingTaskGroup(of: [String].self) { group in
                    for _ in 0..<3 {
                        group.addTask { try await SchemaMigrator(directory: migrations, logger: TestCluster.logger).migrate(pool) }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                #expect(applied.sorted() == ["0001_create", "0002_seed"])
                let items = try await pool.withConnection { connection in
                    try #require(try await connection.query("SELECT count(*) FROM items").first).decode(Int64.self)
                }
                #expect(items == 1)
            }
        }
    }
}
