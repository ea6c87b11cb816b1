import Foundation
@testable import PostgresLibPQ
import PostgresLibPQTesting
import Testing

/// A transaction's body runs on the pool's threads (`ConnectionThreads`), its statements
/// blocking in place; nothing else changes where it runs.
@Suite struct TransactionThreadTests {
    /// The thread the caller runs on now.
    private static func currentThread() -> UInt { UInt(bitPattern: Int(bitPattern: UInt(pthread_self()))) }

    @Test func aTransactionsStatementsRunOnTheThreadItsBodyRunsOn() async throws {
        try await TestCluster.withPool { pool in
            let (threads, onPool) = try await pool.withTransaction { connection in
                var threads: [UInt] = [Self.currentThread()]
                for value in 1...5 {
                    _ = try await connection.query("SELECT \(Int32(value))")
                    threads.append(Self.currentThread())
                }
                return (threads, ConnectionThreads.runsHere)
            }
            #expect(onPool)
            #expect(Set(threads).count == 1, "the body never left its thread between statements")
        }
    }

    @Test func outsideATransactionTheCallerKeepsItsOwnThreads() async throws {
        try await TestCluster.withPool { pool in
            #expect(!ConnectionThreads.runsHere)
            let inside = try await pool.withConnection { connection in
                _ = try await connection.query("SELECT 1")
                return ConnectionThreads.runsHere
            }
            #expect(!inside)
            try await pool.withTransaction { _ in }
            #expect(!ConnectionThreads.runsHere, "the task left the pool's threads with its transaction")
        }
    }

    /// Two threads, two connections: one transaction waits in place for the other's row lock,
    /// holding its thread, while the other suspends in its body and comes back on the thread
    /// left, so both finish.
    @Test func aTransactionWaitingForALockLeavesAThreadForTheOneHoldingIt() async throws {
        try await TestCluster.withPool(size: 2) { pool in
            try await pool.withConnection { try await $0.execute(script: "CREATE TABLE counters (id integer PRIMARY KEY, n integer)") }
            try await pool.withConnection { try await $0.execute("INSERT INTO counters VALUES (1, 0)") }
            let (locked, released) = AsyncStream.makeStream(of: Void.self)
            async let holder: Void = pool.withTransaction { connection in
                try await connection.execute("UPDATE counters SET n = n + 1 WHERE id = 1")
                released.yield()
                try await Task.sleep(for: .milliseconds(200))
                try await connection.execute("UPDATE counters SET n = n + 10 WHERE id = 1")
            }
            for await _ in locked { break }
            try await pool.withTransaction { connection in
                try await connection.execute("UPDATE counters SET n = n * 2 WHERE id = 1")
            }
            try await holder
            let n = try await pool.withConnection { try #require(try await $0.query("SELECT n FROM counters").first).decode(Int32.self) }
            #expect(n == 22, "the waiting transaction ran after the holder committed")
        }
    }

    @Test func manyMoreTransactionsThanThreadsAllFinish() async throws {
        try await TestCluster.withPool(size: 2) { pool in
            try await pool.withConnection { try await $0.execute(script: "CREATE TABLE marks (id integer PRIMARY KEY)") }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in 1...40 {
                    group.addTask {
                        try await pool.withTransaction { connection in
                            try await connection.execute("INSERT INTO marks VALUES (\(Int32(id)))")
                            try await Task.sleep(for: .milliseconds(1))
                            _ = try await connection.query("SELECT pg_sleep(0.001)")
                        }
                    }
                }
                try await group.waitForAll()
            }
            let count = try await pool.withConnection { try #require(try await $0.query("SELECT count(*) FROM marks").first).decode(Int.self) }
            #expect(count == 40)
        }
    }
}
