import Foundation
@testable import PostgresLibPQ
import PostgresLibPQTesting
import Testing

/// A connection may break after any message PostgreSQL sends: the network, a pooler in between
/// that lost its server, a crash. Wherever that happens, a caller is told either what it asked
/// (and a transaction then committed) or a connection error, which a server answers 503; never
/// a protocol surprise, which it would answer 500. A transaction commits whole or not at all,
/// and retried, at most once: PostgreSQL goes on with what it had received (the pipeline's
/// COMMIT too), so a transaction whose COMMIT was sent is never run again.
///
/// Each round ends the session after the k-th message the server sends from the moment the
/// round starts (the connection's start-up included, once a failure replaced it), for every k
/// until a round runs without reaching its k-th message.
@Suite struct SessionEndedAnywhereTests {
    private static let maxMessages = 200

    @Test(arguments: [SessionEndingProxy.Ending.drop, .poolerLostServer])
    func aTransactionCommitsOnceOrFailsAsAConnectionErrorWhereverItsSessionEnds(ending: SessionEndingProxy.Ending) async throws {
        try await TestCluster.withPool(size: 1) { direct in
            try await direct.withConnection { try await $0.execute(script: "CREATE TABLE kept (round integer, entry integer)") }
            try await Self.forEveryEndingPoint(of: direct, ending: ending) { pool, round in
                let returned = try await pool.withRetryingTransaction { connection in
                    try await connection.execute("INSERT INTO kept VALUES (\(Int32(round)), 1)")
                    return try await connection.queryEndingTransaction("INSERT INTO kept VALUES (\(Int32(round)), 2) RETURNING entry")
                        .first?.decode(Int32.self)
                }
                #expect(returned == 2, "round \(round)")
            } check: { round, succeeded in
                // Behind a pooler the statements' connection can be gone while PostgreSQL still
                // commits what it received; the count waits for it, bounded.
                try await Self.waitForBackendsToEnd(direct)
                let rows = try await Self.count(direct, "SELECT count(*) FROM kept WHERE round = \(Int32(round))")
                if succeeded {
                    #expect(rows == 2, "round \(round) answered committed, and kept \(rows) rows")
                } else {
                    #expect(rows == 0 || rows == 2, "round \(round) kept \(rows) rows: a transaction is whole or nothing")
                }
            }
        }
    }

    @Test(arguments: [SessionEndingProxy.Ending.drop, .poolerLostServer, .adminShutdown])
    func aStatementAnswersOrFailsAsAConnectionErrorWhereverItsSessionEnds(ending: SessionEndingProxy.Ending) async throws {
        try await TestCluster.withPool(size: 1) { direct in
            try await Self.forEveryEndingPoint(of: direct, ending: ending) { pool, round in
                let rows = try await pool.withConnection { connection in
                    try await connection.query("SELECT g, \(Int32(round)) FROM generate_series(1, 3) AS g")
                }
                #expect(rows.count == 3, "round \(round)")
            } check: { _, _ in }
        }
    }

    @Test(arguments: [SessionEndingProxy.Ending.drop, .poolerLostServer, .adminShutdown])
    func aBlockingSessionAnswersOrFailsAsAConnectionErrorWhereverItsSessionEnds(ending: SessionEndingProxy.Ending) async throws {
        try await TestCluster.withPool(size: 1) { direct in
            try await Self.forEveryEndingPoint(of: direct, ending: ending) { pool, round in
                let counts = try await pool.withConnection { connection in
                    try await connection.withBlockingSession { session in
                        try session.send("SELECT g, \(Int32(round)) FROM generate_series(1, 3) AS g")
                        let first = try session.receive().count
                        return [first, try session.query("SELECT 1").count]
                    }
                }
                #expect(counts == [3, 1], "round \(round)")
            } check: { _, _ in }
        }
    }

    /// Runs `body` once per ending point through a proxy in front of `direct`'s database, and
    /// `check` after each with whether `body` returned. A `body` that throws must throw a
    /// connection error.
    private static func forEveryEndingPoint(
        of direct: ConnectionPool, ending: SessionEndingProxy.Ending,
        _ body: (ConnectionPool, Int) async throws -> Void,
        check: (Int, Bool) async throws -> Void
    ) async throws {
        try await SessionEndingProxy.withPool(upstream: direct.configuration) { proxy, pool in
            var failures = 0
            for round in 1...maxMessages {
                let (succeeded, ended) = await proxy.endingSession(afterMessages: round, with: ending) {
                    do {
                        try await body(pool, round)
                        return true
                    } catch let error as PostgresError where error.isConnectionError {
                        return false
                    } catch {
                        Issue.record("round \(round): \(error), not a connection error")
                        return false
                    }
                }
                if !succeeded { failures += 1 }
                try await check(round, succeeded)
                guard ended else {
                    // The round ran whole before its k-th message: every point before was tried.
                    #expect(round > 3 && failures > 0, "the rounds reached \(round) messages and \(failures) ended early")
                    return
                }
            }
            Issue.record("a round still had a message after \(maxMessages)")
        }
    }

    /// Waits until no other session of the database is busy: a backend whose client went away
    /// finishes what it had received, COMMIT included, before it notices and exits.
    private static func waitForBackendsToEnd(_ pool: ConnectionPool) async throws {
        for _ in 0..<200 {
            let others = try await count(
                pool, "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'")
            if others == 0 { return }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    private static func count(_ pool: ConnectionPool, _ query: PostgresQuery) async throws -> Int {
        try await pool.withConnection { try #require(try await $0.query(query).first).decode(Int.self) }
    }
}
