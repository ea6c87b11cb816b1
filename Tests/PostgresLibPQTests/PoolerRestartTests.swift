import Foundation
import PostgresLibPQTesting
import Synchronization
import Testing

@testable import PostgresLibPQ

/// PgBouncer stopped under a connection pool and started again: what each shutdown mode does
/// to a transaction under way, and a pool that goes on by itself once the pooler is back; and
/// PostgreSQL stopped behind the pooler, whose errors the pool reads as connection errors.
@Suite(.serialized) struct PoolerRestartTests {
    /// A liveness bound for the pool's recovery, not a performance assertion.
    static let patience: Duration = .seconds(60)

    @Test func theVersionIsReadFromTheFirstLineOfItsReport() {
        #expect(EmbeddedPgBouncer.version(in: "PgBouncer 1.18.0\nlibevent 2.1.12-stable\n")! == (1, 18))
        #expect(EmbeddedPgBouncer.version(in: "PgBouncer 1.24.1\n")! == (1, 24))
        #expect(EmbeddedPgBouncer.version(in: "PgBouncer\n") == nil)
        #expect(EmbeddedPgBouncer.version(in: "") == nil)
    }

    @Test(arguments: EmbeddedPgBouncer.ShutdownMode.allCases)
    func aTransactionUnderWayEndsAsTheModeSaysAndThePoolGoesOnOnceThePoolerIsBack(mode: EmbeddedPgBouncer.ShutdownMode) async throws {
        let pooler = try await TestReplication.extraPooler(named: "restart-\(mode)", options: EmbeddedPgBouncer.Options())
        let direct = try await TestReplication.makeDatabase().primary
        var pooled = pooler.configuration
        pooled.database = direct.database
        let pool = ConnectionPool(configuration: pooled, size: 2, logger: TestCluster.logger)
        do {
            try await run(mode, pooler: pooler, pool: pool, direct: direct)
        } catch {
            await pool.shutdown()
            await pooler.stop()
            throw error
        }
        await pool.shutdown()
        await pooler.stop()
    }

    /// PostgreSQL stopped behind a pooler that stays up: a query sent on a connection already
    /// open is held by the pooler, then failed after its `query_wait_timeout`, and a new
    /// connection is refused at once; both as connection errors (a server's 503), and the pool
    /// goes on once PostgreSQL is back.
    @Test func queriesHeldWhilePostgresIsAwayFailAsConnectionErrors() async throws {
        try await TestCluster.withDedicated(named: "behind-pooler") { cluster, direct in
            var options = EmbeddedPgBouncer.Options()
            options.queryWaitTimeoutSeconds = 1
            options.serverLoginRetrySeconds = 1
            let pooler = try await EmbeddedPgBouncer.temporary(
                prefix: "storesync-test-pgbouncer-behind", server: cluster, options: options, logger: TestCluster.logger)
            var pooled = pooler.configuration
            pooled.database = direct.database
            let pool = ConnectionPool(configuration: pooled, size: 1, logger: TestCluster.logger)
            let outcome = await Self.outcome {
                try await pool.withConnection { _ = try await $0.query("SELECT 1") }
                try await cluster.stop(mode: .fast)
                for _ in 0..<3 {
                    let failure = await Self.outcome { try await pool.withConnection { _ = try await $0.query("SELECT 1") } }
                    guard case .failure(let error) = failure else {
                        Issue.record("a query succeeded while PostgreSQL was stopped")
                        continue
                    }
                    let postgresError = try #require(error as? PostgresError, "\(error)")
                    #expect(postgresError.isConnectionError, "\(postgresError.debugDescription)")
                }
                try await cluster.start()
                try await Self.waitFor("the pool to reach PostgreSQL through the pooler again") {
                    (try? await pool.withConnection { try await $0.query("SELECT 1") }) != nil
                }
            }
            await pool.shutdown()
            await pooler.stop()
            try outcome.get()
        }
    }

    private func run(
        _ mode: EmbeddedPgBouncer.ShutdownMode, pooler: EmbeddedPgBouncer, pool: ConnectionPool, direct: PostgresConfiguration
    ) async throws {
        try await pool.withConnection { _ = try await $0.query("CREATE TABLE items (id integer PRIMARY KEY)") }
        let stopped = LockedFlag()
        let committed = await Self.outcome {
            try await pool.withTransaction { connection in
                _ = try await connection.query("INSERT INTO items VALUES (1)")
                switch mode {
                case .immediate:
                    // Gone before the transaction ends: its COMMIT has nowhere to go.
                    await pooler.stop(mode: .immediate)
                    stopped.set()
                case .safe:
                    // Asked to stop while the transaction is open, it waits for the transaction.
                    Task {
                        await pooler.stop(mode: .safe)
                        stopped.set()
                    }
                    try await Self.waitFor("PgBouncer to take the signal") { pooler.logText.contains("SIGINT") }
                    #expect(!stopped.isSet, "a safe shutdown waits for the transaction under way")
                }
            }
        }
        let rows = try await Self.count(on: direct)
        switch mode {
        case .immediate:
            #expect(throws: PostgresError.self) { try committed.get() }
            #expect(rows == 0, "the transaction the pooler dropped rolled back")
        case .safe:
            #expect(throws: Never.self) { try committed.get() }
            #expect(rows == 1, "the transaction under way committed")
            try await Self.waitFor("the safe shutdown to end") { stopped.isSet }
        }

        await #expect(throws: PostgresError.self) {
            try await pool.withConnection { _ = try await $0.query("SELECT 1") }
        }
        try await pooler.start()
        try await Self.waitFor("the pool to reach the database again") {
            (try? await pool.withConnection { try await $0.query("SELECT count(*) FROM items") }) != nil
        }
        try await pool.withTransaction { _ = try await $0.query("INSERT INTO items VALUES (2)") }
        #expect(try await Self.count(on: direct) == rows + 1)
    }

    /// The rows of `items`, read on a connection of its own (not through the pooler).
    private static func count(on configuration: PostgresConfiguration) async throws -> Int64 {
        let pool = ConnectionPool(configuration: configuration, size: 1, logger: TestCluster.logger)
        let rows = await outcome {
            try await pool.withConnection { try #require(try await $0.query("SELECT count(*) FROM items").first).decode(Int64.self) }
        }
        await pool.shutdown()
        return try rows.get()
    }

    /// What `body` returned or threw.
    private static func outcome<Value>(_ body: () async throws -> Value) async -> Result<Value, any Error> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    private static func waitFor(_ what: String, _ condition: () async -> Bool) async throws {
        let deadline = ContinuousClock.now + patience
        while await !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("gave up waiting for \(what) after \(patience)")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// A flag one task sets and another reads.
private final class LockedFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
