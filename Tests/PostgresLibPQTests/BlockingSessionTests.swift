import PostgresLibPQ
import PostgresLibPQTesting
import Testing

/// A lent connection used on its own thread: statements sent and received in two steps.
@Suite struct BlockingSessionTests {
    @Test func aStatementSentIsReceivedWithItsRowsAndTheNextOneFollows() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            let sums = try await pool.withConnection { connection in
                try await connection.withBlockingSession { session in
                    var sums: [Int] = []
                    try session.send("SELECT \(1) + 1")
                    sums.append(try #require(try session.receive().first).decode(Int.self))
                    try session.send("SELECT \(10) + 1")
                    sums.append(try #require(try session.receive().first).decode(Int.self))
                    sums.append(try #require(try session.query("SELECT 41 + 1").first).decode(Int.self))
                    return sums
                }
            }
            #expect(sums == [2, 11, 42])
        }
    }

    @Test func aSessionPreparesItsStatementsOnceLikeTheAsyncCalls() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { connection in
                _ = try await connection.query("SELECT \(1) * 3")
                try await connection.withBlockingSession { session in
                    for value in 0..<3 { _ = try session.query("SELECT \(value) * 3") }
                }
                let prepared = try await connection.query(
                    "SELECT count(*) FROM pg_prepared_statements WHERE statement = 'SELECT $1 * 3'")
                #expect(try #require(prepared.first).decode(Int.self) == 1)
            }
        }
    }

    /// The health check a session runs before each statement rolls back a transaction left
    /// open by a previous borrower, never the one the session's own connection has open.
    @Test(arguments: [true, false])
    func aSessionInsideATransactionIsPartOfIt(commits: Bool) async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { try await $0.execute("CREATE TABLE IF NOT EXISTS session_rows (n int)") }
            try await pool.withConnection { try await $0.execute("TRUNCATE session_rows") }
            struct Abandoned: Error {}
            do {
                try await pool.withTransaction { connection in
                    try await connection.withBlockingSession { session in
                        for n in 1...3 { _ = try session.query("INSERT INTO session_rows VALUES (\(n))") }
                    }
                    if !commits { throw Abandoned() }
                }
            } catch is Abandoned {}
            let rows = try await pool.withConnection { connection in
                try await connection.query("SELECT count(*)::int FROM session_rows").first!.decode(Int.self)
            }
            #expect(rows == (commits ? 3 : 0))
        }
    }

    @Test func aSessionThatBeginsItsOwnTransactionKeepsItUntilItEndsIt() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            let seen = try await pool.withConnection { connection in
                try await connection.withBlockingSession { session in
                    _ = try session.query("BEGIN")
                    _ = try session.query("CREATE TEMP TABLE own_rows (n int) ON COMMIT DROP")
                    _ = try session.query("INSERT INTO own_rows VALUES (\(1))")
                    let seen = try #require(try session.query("SELECT count(*)::int FROM own_rows").first).decode(Int.self)
                    _ = try session.query("COMMIT")
                    return seen
                }
            }
            #expect(seen == 1)
        }
    }

    @Test func aServerErrorFailsItsStatementAndTheSessionGoesOn() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            let after = try await pool.withConnection { connection in
                try await connection.withBlockingSession { session in
                    try session.send("SELECT 1 / \(0)")
                    let error = try #require(throws: PostgresError.self) { try session.receive() }
                    #expect(error.code == PostgresError.Code(raw: "22012"), "division by zero, with its SQLSTATE")
                    return try #require(try session.query("SELECT \(7) + 0").first).decode(Int.self)
                }
            }
            #expect(after == 7)
        }
    }

    @Test func sendingTwiceOrReceivingNothingIsRefusedAndChangesNothing() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { connection in
                try await connection.withBlockingSession { session in
                    #expect(throws: PostgresError.self) { try session.receive() }
                    try session.send("SELECT \(5) + 0")
                    let refused = try #require(throws: PostgresError.self) { try session.send("SELECT \(6) + 0") }
                    #expect(refused.code == .unexpectedResponse)
                    #expect(try #require(try session.receive().first).decode(Int.self) == 5)
                }
            }
        }
    }

    @Test func aStatementLeftUnreceivedIsDrainedBeforeTheConnectionGoesBack() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { connection in
                try await connection.withBlockingSession { session in try session.send("SELECT pg_sleep(0.05)") }
            }
            let next = try await pool.withConnection { try #require(try await $0.query("SELECT \(3) + 0").first) }
            #expect(try next.decode(Int.self) == 3)
        }
    }

    @Test func aStalePlanIsPreparedAgainOutsideATransaction() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { connection in
                try await connection.execute("CREATE TABLE gadgets (id integer)")
                try await connection.execute("INSERT INTO gadgets VALUES (\(Int32(1)))")
                let columns = try await connection.withBlockingSession { session in
                    let before = try session.query("SELECT * FROM gadgets WHERE id = \(Int32(1))").columns
                    _ = try session.query("ALTER TABLE gadgets ADD COLUMN name text DEFAULT 'g'")
                    return (before, try session.query("SELECT * FROM gadgets WHERE id = \(Int32(1))").columns)
                }
                #expect(columns.0 == ["id"])
                #expect(columns.1 == ["id", "name"])
            }
        }
    }

    @Test func aConnectionTheServerClosedWhileTheSessionHeldItIsReplacedBeforeTheNextStatement() async throws {
        try await TestCluster.withPool(size: 2) { pool in
            let (first, second) = try await pool.withConnection { connection in
                let first = try #require(try await connection.query("SELECT pg_backend_pid()").first).decode(Int32.self)
                try await pool.withConnection { other in
                    try await other.execute("SELECT pg_terminate_backend(\(first))")
                    // A backend leaves pg_stat_activity just before its process exits and the
                    // socket closes: wait for that, then a moment for the exit itself.
                    while try #require(try await other.query("SELECT count(*) FROM pg_stat_activity WHERE pid = \(first)").first)
                        .decode(Int.self) > 0
                    {
                        try await Task.sleep(for: .milliseconds(10))
                    }
                    try await Task.sleep(for: .milliseconds(200))
                }
                let second = try await connection.withBlockingSession { session in
                    try #require(try session.query("SELECT pg_backend_pid()").first).decode(Int32.self)
                }
                return (first, second)
            }
            #expect(first != second)
        }
    }
}
