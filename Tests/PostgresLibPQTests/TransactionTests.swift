import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import Testing

@Suite struct TransactionTests {
    private static let schema = """
        CREATE TABLE parents (id integer PRIMARY KEY, email text UNIQUE);
        CREATE TABLE children (id integer PRIMARY KEY, parent_id integer NOT NULL REFERENCES parents (id));
        """

    private func count(_ pool: ConnectionPool, _ table: PostgresQuery) async throws -> Int {
        try await pool.withConnection { try #require(try await $0.query(table).first).decode(Int.self) }
    }

    private struct Abort: Error {}

    @Test func committedTransactionKeepsItsWrites() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { try await $0.execute(script: Self.schema) }
            let value = try await pool.withTransaction { connection in
                try await connection.execute("INSERT INTO parents VALUES (1, 'a@example.com')")
                return "done"
            }
            #expect(value == "done")
            #expect(try await count(pool, "SELECT count(*) FROM parents") == 1)
        }
    }

    @Test func throwingClosureRollsBackEverything() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { try await $0.execute(script: Self.schema) }
            await #expect(throws: Abort.self) {
                try await pool.withTransaction(isolation: .repeatableRead) { connection in
                    try await connection.execute("INSERT INTO parents VALUES (1, 'a@example.com')")
                    throw Abort()
                }
            }
            #expect(try await count(pool, "SELECT count(*) FROM parents") == 0)
        }
    }

    @Test func uniqueViolationMapsToItsSQLSTATEWithTheConstraint() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { try await $0.execute(script: Self.schema) }
            let error = try await #require(throws: PostgresError.self) {
                try await pool.withConnection { connection in
                    try await connection.execute("INSERT INTO parents VALUES (1, \("same@example.com"))")
                    try await connection.execute("INSERT INTO parents VALUES (2, \("same@example.com"))")
                }
            }
            #expect(error.code == .uniqueViolation)
            #expect(error.constraintName == "parents_email_key")
            #expect(error.tableName == "parents")
            #expect(!error.isConnectionError)
            #expect(!error.description.contains("same@example.com"))
        }
    }

    @Test func foreignKeyViolationMapsToItsSQLSTATE() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { try await $0.execute(script: Self.schema) }
            let error = try await #require(throws: PostgresError.self) {
                try await pool.withTransaction { connection in
                    try await connection.execute("INSERT INTO children VALUES (1, \(Int32(999)))")
                }
            }
            #expect(error.code == .foreignKeyViolation)
            #expect(error.constraintName == "children_parent_id_fkey")
        }
    }

    /// Rolled back or committed, a transaction whose statement failed does not answer as if
    /// it had run.
    @Test(arguments: [false, true])
    func swallowedStatementErrorIsNotReportedAsCommitted(rollbackOnly: Bool) async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { try await $0.execute(script: Self.schema) }
            let error = try await #require(throws: PostgresError.self) {
                try await pool.withTransaction(rollbackOnly: rollbackOnly) { connection in
                    try await connection.execute("INSERT INTO parents VALUES (1, 'a@example.com')")
                    _ = try? await connection.execute("INSERT INTO parents VALUES (1, 'duplicate@example.com')")
                }
            }
            #expect(error.code == .inFailedSQLTransaction)
            #expect(try await count(pool, "SELECT count(*) FROM parents") == 0)
        }
    }

    @Test func rollbackOnlyTransactionAnswersFromItsOwnWritesAndKeepsNone() async throws {
        // One connection: the count afterwards runs on the connection the transaction used, which
        // would still see the row if the transaction were left open.
        try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { try await $0.execute(script: Self.schema) }
            let seen = try await pool.withTransaction(rollbackOnly: true) { connection in
                try await connection.execute("INSERT INTO parents VALUES (1, 'a@example.com')")
                return try #require(try await connection.query("SELECT count(*) FROM parents").first).decode(Int.self)
            }
            #expect(seen == 1)
            #expect(try await count(pool, "SELECT count(*) FROM parents") == 0)
        }
    }

    @Test func rollbackOnlyTransactionIsRetriedOnSerializationFailureAndKeepsNothing() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { try await $0.execute(script: Self.schema) }
            let attempts = AttemptCounter()
            let answer = try await pool.withRetryingTransaction(isolation: .serializable, rollbackOnly: true) { connection in
                let attempt = await attempts.next()
                try await connection.execute("INSERT INTO parents VALUES (\(Int32(attempt)), NULL)")
                if attempt == 1 {
                    try await connection.execute("DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = 'serialization_failure'; END $$")
                }
                return attempt
            }
            #expect(answer == 2)
            #expect(try await count(pool, "SELECT count(*) FROM parents") == 0)
        }
    }

    @Test func throwingClosureInARollbackOnlyTransactionThrowsItsOwnError() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { try await $0.execute(script: Self.schema) }
            await #expect(throws: Abort.self) {
                try await pool.withTransaction(rollbackOnly: true) { connection in
                    try await connection.execute("INSERT INTO parents VALUES (1, 'a@example.com')")
                    throw Abort()
                }
            }
            #expect(try await count(pool, "SELECT count(*) FROM parents") == 0)
        }
    }

    @Test func serializationFailureIsRetriedUntilItCommits() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { try await $0.execute(script: Self.schema) }
            let attempts = AttemptCounter()
            let result = try await pool.withRetryingTransaction(isolation: .serializable) { connection in
                let attempt = await attempts.next()
                try await connection.execute("INSERT INTO parents VALUES (\(Int32(attempt)), NULL)")
                if attempt < 3 {
                    try await connection.execute("DO $$ BEGIN RAISE EXCEPTION 'conflict' USING ERRCODE = 'serialization_failure'; END $$")
                }
                return attempt
            }
            #expect(result == 3)
            let ids = try await pool.withConnection { connection in
                try await connection.query("SELECT id FROM parents").map { try $0.decode(Int32.self) }
            }
            #expect(ids == [3])
        }
    }

    @Test func deadlockIsRetried() async throws {
        try await TestCluster.withPool { pool in
            let attempts = AttemptCounter()
            try await pool.withRetryingTransaction { connection in
                if await attempts.next() == 1 {
                    try await connection.execute("DO $$ BEGIN RAISE EXCEPTION 'deadlock' USING ERRCODE = 'deadlock_detected'; END $$")
                }
            }
            #expect(await attempts.count == 2)
        }
    }

    @Test func connectionLostBeforeCommitIsRetriedOnAFreshConnection() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { try await $0.execute("CREATE TABLE ledger (entry integer)") }
            let attempts = AttemptCounter()
            try await pool.withRetryingTransaction { connection in
                let attempt = await attempts.next()
                try await connection.execute("INSERT INTO ledger VALUES (\(Int32(attempt)))")
                if attempt == 1 {
                    try await connection.execute("SELECT pg_terminate_backend(pg_backend_pid())")
                }
            }
            let entries = try await pool.withConnection { connection in
                try await connection.query("SELECT entry FROM ledger").map { try $0.decode(Int32.self) }
            }
            #expect(entries == [2])
        }
    }

    /// A second lost connection in one call is the database being away, not a stale connection.
    @Test func aConnectionLostTwiceIsRetriedOnlyOnce() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            let attempts = AttemptCounter()
            let error = try await #require(throws: PostgresError.self) {
                try await pool.withRetryingTransaction { connection in
                    _ = await attempts.next()
                    try await connection.execute("SELECT pg_terminate_backend(pg_backend_pid())")
                }
            }
            #expect(error.isConnectionError)
            #expect(await attempts.count == 2)
        }
    }

    @Test func serializationFailuresAfterALostConnectionAreStillRetried() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            let attempts = AttemptCounter()
            try await pool.withRetryingTransaction { connection in
                switch await attempts.next() {
                case 1: try await connection.execute("SELECT pg_terminate_backend(pg_backend_pid())")
                case 2, 3:
                    try await connection.execute(
                        "DO $$ BEGIN RAISE EXCEPTION 'collided' USING ERRCODE = 'serialization_failure'; END $$")
                default: break
                }
            }
            #expect(await attempts.count == 4)
        }
    }

    @Test func retriesStopAtMaxAttemptsWithTheLastError() async throws {
        try await TestCluster.withPool { pool in
            let attempts = AttemptCounter()
            let error = try await #require(throws: PostgresError.self) {
                try await pool.withRetryingTransaction(maxAttempts: 3) { connection in
                    _ = await attempts.next()
                    try await connection.execute("DO $$ BEGIN RAISE EXCEPTION 'always' USING ERRCODE = 'serialization_failure'; END $$")
                }
            }
            #expect(error.code == .serializationFailure)
            #expect(await attempts.count == 3)
        }
    }

    @Test func nonRetryableErrorsAreNotRetried() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { try await $0.execute(script: Self.schema) }
            let attempts = AttemptCounter()
            let error = try await #require(throws: PostgresError.self) {
                try await pool.withRetryingTransaction { connection in
                    _ = await attempts.next()
                    try await connection.execute("INSERT INTO children VALUES (1, 1)")
                }
            }
            #expect(error.code == .foreignKeyViolation)
            #expect(await attempts.count == 1)
        }
    }

    @Test func realWriteSkewBetweenSerializableTransactionsResolvesByRetry() async throws {
        try await TestCluster.withPool(size: 4) { pool in
            try await pool.withConnection { connection in
                try await connection.execute(script: "CREATE TABLE doctors (name text PRIMARY KEY, on_call boolean); INSERT INTO doctors VALUES ('a', true), ('b', true);")
            }
            // Both transactions read "two on call" before either writes; serializable lets only one commit.
            let barrier = Barrier(parties: 2)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for name in ["a", "b"] {
                    group.addTask {
                        let attempts = AttemptCounter()
                        try await pool.withRetryingTransaction(isolation: .serializable, maxAttempts: 10) { connection in
                            let onCall = try #require(try await connection.query("SELECT count(*) FROM doctors WHERE on_call").first).decode(Int.self)
                            if await attempts.next() == 1 { await barrier.arrive() }
                            if onCall >= 2 {
                                try await connection.execute("UPDATE doctors SET on_call = false WHERE name = \(name)")
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await count(pool, "SELECT count(*) FROM doctors WHERE on_call") == 1)
        }
    }
}

actor AttemptCounter {
    private(set) var count = 0

    func next() -> Int {
        count += 1
        return count
    }
}

/// Lets `parties` tasks continue only once all of them arrived.
actor Barrier {
    private let parties: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(parties: Int) {
        self.parties = parties
    }

    func arrive() async {
        if waiting.count + 1 == parties {
            waiting.forEach { $0.resume() }
            waiting.removeAll()
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}
