internal import CLibPQ
import Foundation
@testable import PostgresLibPQ
import PostgresLibPQTesting
import Testing

/// BEGIN travels with a transaction's first statement in one pipeline: what the transaction
/// does must be exactly what it did when BEGIN went alone, in one round trip fewer.
@Suite struct TransactionPipelineTests {
    private struct Abort: Error {}

    private func count(_ pool: ConnectionPool, _ query: PostgresQuery) async throws -> Int {
        try await pool.withConnection { try #require(try await $0.query(query).first).decode(Int.self) }
    }

    @Test func beginAndTheFirstStatementReachTheServerBeforeAnyAnswer() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            let trace = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-\(UUID().uuidString).trace")
            defer { try? FileManager.default.removeItem(at: trace) }
            try await pool.withTransaction(isolation: .repeatableRead) { connection in
                let file = try #require(fopen(trace.path, "w"))
                try connection.core.withHealthyHandle { handle in
                    PQtrace(handle.pointer, file)
                    PQsetTraceFlags(handle.pointer, PQTRACE_SUPPRESS_TIMESTAMPS)
                }
                let level = try await connection.query("SELECT current_setting('transaction_isolation') WHERE \(Int32(1)) = 1")
                let value = try level.first?.decode(String.self)
                #expect(value == "repeatable read")
                try connection.core.withSentHandle { PQuntrace($0.pointer) }
                fclose(file)
            }
            // libpq's trace: one line per protocol message, "F" from the client, "B" from the server.
            let messages = try String(contentsOf: trace, encoding: .utf8).split(separator: "\n")
            let firstAnswer = try #require(messages.firstIndex { $0.hasPrefix("B") })
            let sentBefore = messages[..<firstAnswer]
            #expect(sentBefore.contains { $0.contains("BEGIN ISOLATION LEVEL REPEATABLE READ") })
            #expect(sentBefore.contains { $0.contains("current_setting('transaction_isolation')") })
            #expect(sentBefore.filter { $0.contains("\tSync") }.count == 1)
            #expect(messages.filter { $0.hasPrefix("F") && $0.contains("\tSync") }.count == 1)
        }
    }

    @Test func aStatementNewToTheConnectionIsPreparedInThePipelineOnceForEveryTransaction() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            for value in [Int32(7), 8, 9] {
                let answer = try await pool.withTransaction { connection in
                    try await connection.query("SELECT \(value) + 1 AS pipelined").first?.decode(Int32.self)
                }
                #expect(answer == value + 1)
            }
            #expect(try await count(pool, "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE '%pipelined%'") == 1)
        }
    }

    @Test(arguments: [
        ("SELECT \(Int32(1)) / \(Int32(0))", PostgresError.Code(raw: "22012")),
        ("SELECT \(Int32(1)) FROM no_such_table", PostgresError.Code.undefinedTable),
        ("SELEKT \(Int32(1))", PostgresError.Code.syntaxError),
    ] as [(PostgresQuery, PostgresError.Code)])
    func aFirstStatementThatFailsFailsTheTransactionAndLeavesTheConnectionReady(
        statement: PostgresQuery, code: PostgresError.Code
    ) async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { try await $0.execute("CREATE TABLE kept (entry integer)") }
            let error = try await #require(throws: PostgresError.self) {
                try await pool.withTransaction { connection in
                    try await connection.execute(statement)
                    try await connection.execute("INSERT INTO kept VALUES (1)")
                }
            }
            #expect(error.code == code)
            try await pool.withTransaction { try await $0.execute("INSERT INTO kept VALUES (\(Int32(2)))") }
            #expect(try await count(pool, "SELECT count(*) FROM kept") == 1)
            #expect(try await count(pool, "SELECT count(*) FROM kept WHERE entry = 2") == 1)
        }
    }

    @Test(arguments: [false, true])
    func aSwallowedFailureOfTheFirstStatementIsNotReportedAsCommitted(rollbackOnly: Bool) async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { try await $0.execute("CREATE TABLE kept (entry integer)") }
            let error = try await #require(throws: PostgresError.self) {
                try await pool.withTransaction(rollbackOnly: rollbackOnly) { connection in
                    _ = try? await connection.execute("SELECT \(Int32(1)) FROM no_such_table")
                    _ = try? await connection.execute("INSERT INTO kept VALUES (\(Int32(1)))")
                }
            }
            #expect(error.code == .inFailedSQLTransaction)
            #expect(try await count(pool, "SELECT count(*) FROM kept") == 0)
        }
    }

    @Test(arguments: [false, true])
    func aTransactionWithoutStatementsEndsCleanly(rollbackOnly: Bool) async throws {
        try await TestCluster.withPool(size: 1) { pool in
            let answer = try await pool.withTransaction(rollbackOnly: rollbackOnly) { _ in "nothing to do" }
            #expect(answer == "nothing to do")
            await #expect(throws: Abort.self) {
                try await pool.withTransaction(rollbackOnly: rollbackOnly) { _ in throw Abort() }
            }
            #expect(try await count(pool, "SELECT \(Int32(3))") == 3)
        }
    }

    @Test func aScriptAsTheFirstStatementRunsInsideTheTransaction() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { try await $0.execute("CREATE TABLE kept (entry integer)") }
            await #expect(throws: Abort.self) {
                try await pool.withTransaction { connection in
                    try await connection.execute(script: "INSERT INTO kept VALUES (1); INSERT INTO kept VALUES (2)")
                    throw Abort()
                }
            }
            #expect(try await count(pool, "SELECT count(*) FROM kept") == 0)
        }
    }

    @Test func aBorrowerThatLeftItsOpeningUnsentLeavesNothingToTheNext() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { connection in
                connection.core.openTransaction(with: ["BEGIN ISOLATION LEVEL SERIALIZABLE"], closingWith: "COMMIT")
            }
            let level = try await pool.withConnection { connection in
                try await connection.query("SELECT current_setting('transaction_isolation')").first?.decode(String.self)
            }
            #expect(level == "read committed")
        }
    }

    @Test func aConnectionLostOnTheFirstStatementIsRetriedOnAFreshOne() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { try await $0.execute("CREATE TABLE kept (entry integer)") }
            let attempts = AttemptCounter()
            try await pool.withRetryingTransaction { connection in
                if await attempts.next() == 1 {
                    try await connection.execute("SELECT pg_terminate_backend(pg_backend_pid())")
                }
                try await connection.execute("INSERT INTO kept VALUES (\(Int32(await attempts.count)))")
            }
            #expect(try await count(pool, "SELECT count(*) FROM kept WHERE entry = 2") == 1)
            #expect(await attempts.count == 2)
        }
    }
}
