internal import CLibPQ
import Foundation
@testable import PostgresLibPQ
import PostgresLibPQTesting
import Testing

/// COMMIT travels with the transaction's last statement in one pipeline
/// (`queryEndingTransaction`): what the transaction keeps, and what its caller is told, must be
/// what they were with COMMIT sent alone, in one round trip fewer.
@Suite struct TransactionEndingPipelineTests {
    private func count(_ pool: ConnectionPool, _ query: PostgresQuery) async throws -> Int {
        try await pool.withConnection { try #require(try await $0.query(query).first).decode(Int.self) }
    }

    private func makeTable(_ pool: ConnectionPool, _ definition: String = "entry integer") async throws {
        try await pool.withConnection { try await $0.execute(script: "CREATE TABLE kept (\(definition))") }
    }

    /// libpq's trace of what `body` sends: one line per protocol message, "F" from the client,
    /// "B" from the server.
    private func traced(_ connection: PostgresConnection, _ body: () async throws -> Void) async throws -> [Substring] {
        let trace = FileManager.default.temporaryDirectory.appendingPathComponent("ending-\(UUID().uuidString).trace")
        defer { try? FileManager.default.removeItem(at: trace) }
        let file = try #require(fopen(trace.path, "w"))
        try connection.core.withHealthyHandle { handle in
            PQtrace(handle.pointer, file)
            PQsetTraceFlags(handle.pointer, PQTRACE_SUPPRESS_TIMESTAMPS)
        }
        try await body()
        try connection.core.withSentHandle { PQuntrace($0.pointer) }
        fclose(file)
        return try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
    }

    @Test func theLastStatementAndCommitReachTheServerBeforeAnyAnswer() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await makeTable(pool)
            var messages: [Substring] = []
            let returned = try await pool.withTransaction { connection in
                try await connection.execute("INSERT INTO kept VALUES (\(Int32(1)))")
                var entry: Int32?
                messages = try await traced(connection) {
                    entry = try await connection.queryEndingTransaction("INSERT INTO kept VALUES (\(Int32(2))) RETURNING entry")
                        .first?.decode(Int32.self)
                }
                return entry
            }
            #expect(returned == 2)
            let firstAnswer = try #require(messages.firstIndex { $0.hasPrefix("B") })
            let sentBefore = messages[..<firstAnswer]
            #expect(sentBefore.contains { $0.contains("INSERT INTO kept VALUES") })
            #expect(sentBefore.contains { $0.contains("COMMIT") })
            #expect(messages.filter { $0.hasPrefix("F") && $0.contains("\tSync") }.count == 1)
            #expect(!messages[firstAnswer...].contains { $0.hasPrefix("F") }, "nothing is sent after the answers start")
            #expect(try await count(pool, "SELECT count(*) FROM kept") == 2)
        }
    }

    @Test func aTransactionOfOneStatementIsOneRoundTrip() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await makeTable(pool)
            var messages: [Substring] = []
            try await pool.withTransaction(isolation: .repeatableRead) { connection in
                messages = try await traced(connection) {
                    try await connection.queryEndingTransaction("INSERT INTO kept VALUES (\(Int32(7)))")
                }
            }
            let firstAnswer = try #require(messages.firstIndex { $0.hasPrefix("B") })
            let sentBefore = messages[..<firstAnswer]
            #expect(sentBefore.contains { $0.contains("BEGIN ISOLATION LEVEL REPEATABLE READ") })
            #expect(sentBefore.contains { $0.contains("COMMIT") })
            #expect(messages.filter { $0.hasPrefix("F") && $0.contains("\tSync") }.count == 1)
            #expect(try await count(pool, "SELECT count(*) FROM kept WHERE entry = 7") == 1)
        }
    }

    @Test("A last statement that fails is the transaction's failure; COMMIT is skipped, nothing kept", arguments: [false, true])
    func aLastStatementThatFailsRollsBackAndLeavesTheConnectionReady(rollbackOnly: Bool) async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await makeTable(pool)
            let error = try await #require(throws: PostgresError.self) {
                try await pool.withTransaction(rollbackOnly: rollbackOnly) { connection in
                    try await connection.execute("INSERT INTO kept VALUES (\(Int32(1)))")
                    _ = try await connection.queryEndingTransaction("SELECT \(Int32(1)) / \(Int32(0))")
                }
            }
            #expect(error.code == PostgresError.Code(raw: "22012"))
            #expect(try await count(pool, "SELECT count(*) FROM kept") == 0)
            try await pool.withTransaction { try await $0.queryEndingTransaction("INSERT INTO kept VALUES (\(Int32(2)))") }
            #expect(try await count(pool, "SELECT count(*) FROM kept WHERE entry = 2") == 1)
        }
    }

    @Test func aCommitThatFailsKeepsNothingAndIsReportedWithItsError() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            // Checked at COMMIT, not at the statement: the statement succeeds, COMMIT fails.
            try await makeTable(pool, "entry integer UNIQUE DEFERRABLE INITIALLY DEFERRED")
            let error = try await #require(throws: PostgresError.self) {
                try await pool.withTransaction { connection in
                    try await connection.execute("INSERT INTO kept VALUES (\(Int32(1)))")
                    _ = try await connection.queryEndingTransaction("INSERT INTO kept VALUES (\(Int32(1)))")
                }
            }
            #expect(error.code == .uniqueViolation)
            #expect(try await count(pool, "SELECT count(*) FROM kept") == 0)
            try await pool.withTransaction { try await $0.queryEndingTransaction("INSERT INTO kept VALUES (\(Int32(3)))") }
            #expect(try await count(pool, "SELECT count(*) FROM kept") == 1)
        }
    }

    @Test func aRollbackOnlyTransactionAnswersAndKeepsNothing() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await makeTable(pool)
            let seen = try await pool.withTransaction(rollbackOnly: true) { connection in
                try await connection.execute("INSERT INTO kept VALUES (\(Int32(1)))")
                return try await connection.queryEndingTransaction("SELECT count(*) FROM kept WHERE entry >= \(Int32(0))")
                    .first?.decode(Int.self)
            }
            #expect(seen == 1, "the body sees its own writes")
            #expect(try await count(pool, "SELECT count(*) FROM kept") == 0)
        }
    }

    @Test(arguments: [false, true])
    func aSwallowedFailureOfTheLastStatementIsNotReportedAsCommitted(rollbackOnly: Bool) async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await makeTable(pool)
            let error = try await #require(throws: PostgresError.self) {
                try await pool.withTransaction(rollbackOnly: rollbackOnly) { connection in
                    try await connection.execute("INSERT INTO kept VALUES (\(Int32(1)))")
                    _ = try? await connection.queryEndingTransaction("SELECT \(Int32(1)) FROM no_such_table")
                }
            }
            #expect(error.code == .inFailedSQLTransaction)
            #expect(try await count(pool, "SELECT count(*) FROM kept") == 0)
        }
    }

    @Test func endingWithoutATransactionIsRefusedAndChangesNothing() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await makeTable(pool)
            try await pool.withConnection { connection in
                let error = try await #require(throws: PostgresError.self) {
                    try await connection.queryEndingTransaction("INSERT INTO kept VALUES (\(Int32(1)))")
                }
                #expect(error.message?.contains("no transaction is open") == true)
                // The connection is still usable, and not inside a transaction.
                try await connection.execute("INSERT INTO kept VALUES (\(Int32(2)))")
            }
            #expect(try await count(pool, "SELECT count(*) FROM kept") == 1)
        }
    }

    /// PostgreSQL answered the last statement with an error, so it skipped COMMIT: nothing was
    /// kept, and the attempt runs again on a fresh connection.
    @Test func aConnectionLostBeforeCommitRanIsRetriedOnAFreshOne() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await makeTable(pool)
            let attempts = AttemptCounter()
            try await pool.withRetryingTransaction { connection in
                let attempt = await attempts.next()
                try await connection.execute("INSERT INTO kept VALUES (\(Int32(attempt)))")
                let last: PostgresQuery = attempt == 1
                    ? "SELECT pg_terminate_backend(pg_backend_pid())" : "SELECT \(Int32(attempt))"
                _ = try await connection.queryEndingTransaction(last)
            }
            #expect(await attempts.count == 2)
            #expect(try await count(pool, "SELECT count(*) FROM kept") == 1)
            #expect(try await count(pool, "SELECT count(*) FROM kept WHERE entry = 2") == 1)
        }
    }

    /// Lost while COMMIT ran, the transaction may have committed: it is not run again.
    @Test func aConnectionLostDuringCommitIsNotRetried() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            // A deferred trigger runs inside COMMIT; this one ends its own backend there.
            try await makeTable(pool)
            try await pool.withConnection { connection in
                try await connection.execute(script: """
                    CREATE FUNCTION die_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        PERFORM pg_terminate_backend(pg_backend_pid());
                        PERFORM pg_sleep(1);
                        RETURN NULL;
                    END $$;
                    CREATE CONSTRAINT TRIGGER die AFTER INSERT ON kept DEFERRABLE INITIALLY DEFERRED
                        FOR EACH ROW EXECUTE FUNCTION die_at_commit();
                    """)
            }
            let attempts = AttemptCounter()
            let error = try await #require(throws: PostgresError.self) {
                try await pool.withRetryingTransaction { connection in
                    _ = await attempts.next()
                    _ = try await connection.queryEndingTransaction("INSERT INTO kept VALUES (\(Int32(1)))")
                }
            }
            #expect(error.isConnectionError)
            #expect(await attempts.count == 1)
            #expect(try await count(pool, "SELECT count(*) FROM kept") == 0, "PostgreSQL ended before the commit")
        }
    }

    /// A shutdown that ends the session after COMMIT was answered, in place of the pipeline's
    /// Sync (seen under `pg_ctl stop -m fast`): the transaction committed and its caller was
    /// answered, so the caller is told so; only the connection is lost, and replaced.
    @Test func aSessionEndedAfterCommitWasAnsweredKeepsTheCommitAndAnswersIt() async throws {
        try await withProxiedPool { direct, pool, proxy in
            let attempts = AttemptCounter()
            proxy.endSession(after: Self.commandComplete("COMMIT"))
            let returned = try await pool.withRetryingTransaction { connection in
                _ = await attempts.next()
                try await connection.execute("INSERT INTO kept VALUES (\(Int32(1)))")
                return try await connection.queryEndingTransaction("INSERT INTO kept VALUES (\(Int32(2))) RETURNING entry")
                    .first?.decode(Int32.self)
            }
            #expect(proxy.hasFired)
            #expect(returned == 2)
            #expect(await attempts.count == 1)
            #expect(try await count(direct, "SELECT count(*) FROM kept") == 2)
            #expect(try await count(pool, "SELECT count(*) FROM kept") == 2, "the lost connection is replaced")
        }
    }

    /// A session ended between a transaction's statements, in place of the pipeline's Sync:
    /// PostgreSQL's FATAL (57P01) is a connection error, nothing was committed, and the
    /// transaction runs again on a fresh connection.
    @Test func aSessionEndedBeforeCommitIsAConnectionErrorAndTheTransactionRunsAgain() async throws {
        try await withProxiedPool { direct, pool, proxy in
            // The first statement travels with BEGIN; the session ends after its answer.
            proxy.endSession(after: Self.commandComplete("INSERT"))
            let error = try await #require(throws: PostgresError.self) {
                try await pool.withTransaction { connection in
                    try await connection.execute("INSERT INTO kept VALUES (\(Int32(1)))")
                    _ = try await connection.queryEndingTransaction("SELECT 1")
                }
            }
            #expect(error.code == .adminShutdown && error.isConnectionError)

            let attempts = AttemptCounter()
            proxy.endSession(after: Self.commandComplete("INSERT"))
            try await pool.withRetryingTransaction { connection in
                let attempt = await attempts.next()
                try await connection.execute("INSERT INTO kept VALUES (\(Int32(attempt)))")
                _ = try await connection.queryEndingTransaction("SELECT 1")
            }
            #expect(await attempts.count == 2)
            #expect(try await count(direct, "SELECT count(*) FROM kept") == 1)
            #expect(try await count(direct, "SELECT count(*) FROM kept WHERE entry = 2") == 1, "the first attempt kept nothing")
        }
    }

    /// Runs `body` with a pool on a fresh database holding `kept` (`direct`), and a pool of one
    /// connection reaching it through a ``SessionEndingProxy``.
    private func withProxiedPool(
        _ body: (_ direct: ConnectionPool, _ proxied: ConnectionPool, _ proxy: SessionEndingProxy) async throws -> Void
    ) async throws {
        try await TestCluster.withPool(size: 1) { direct in
            try await makeTable(direct)
            try await SessionEndingProxy.withPool(upstream: direct.configuration) { proxy, pool in
                try await body(direct, pool, proxy)
            }
        }
    }

    /// A trigger for ``SessionEndingProxy``: the server's CommandComplete whose tag starts with `tag`.
    private static func commandComplete(_ tag: String) -> SessionEndingProxy.Trigger {
        { type, body in type == UInt8(ascii: "C") && body.starts(with: Array(tag.utf8)) }
    }
}
