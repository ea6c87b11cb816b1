import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import Testing

@Suite struct ConnectionPoolTests {
    @Test func twoHundredConcurrentTasksOnAPoolOfFourAllComplete() async throws {
        try await TestCluster.withPool(size: 4) { pool in
            try await pool.withConnection { try await $0.execute("CREATE TABLE hits (task integer PRIMARY KEY)") }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for task in 0..<200 {
                    group.addTask {
                        _ = try await pool.withConnection { connection in
                            try await connection.execute("INSERT INTO hits VALUES (\(Int32(task)))")
                        }
                    }
                }
                try await group.waitForAll()
            }
            let count = try await pool.withConnection { try #require(try await $0.query("SELECT count(*) FROM hits").first).decode(Int.self) }
            #expect(count == 200)
            let statistics = pool.statistics
            #expect(statistics.connections <= 4)
            #expect(statistics.inUse == 0)
            #expect(statistics.waiting == 0)
        }
    }

    @Test func connectionsAreCreatedOnlyWhenNeeded() async throws {
        try await TestCluster.withPool(size: 4) { pool in
            #expect(pool.statistics.connections == 0)
            for _ in 0..<5 {
                try await pool.withConnection { try await $0.execute("SELECT 1") }
            }
            #expect(pool.statistics.connections == 1)
            #expect(pool.statistics.idle == 1)
        }
    }

    @Test func terminatedConnectionIsReplacedOnNextUse() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            let firstBackend = try await pool.withConnection { connection in
                try #require(try await connection.query("SELECT pg_backend_pid()").first).decode(Int32.self)
            }
            let cluster = try await TestCluster.cluster()
            let admin = ConnectionPool(configuration: cluster.configuration, size: 1, logger: TestCluster.logger)
            let terminated = try await admin.withConnection { connection in
                try #require(try await connection.query("SELECT pg_terminate_backend(\(firstBackend), 5000)").first).decode(Bool.self)
            }
            await admin.shutdown()
            #expect(terminated)
            let secondBackend = try await pool.withConnection { connection in
                try #require(try await connection.query("SELECT pg_backend_pid()").first).decode(Int32.self)
            }
            #expect(secondBackend != firstBackend)
        }
    }

    @Test func connectionDyingMidQueryGivesAConnectionErrorAndTheNextUseWorks() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            let error = try await #require(throws: PostgresError.self) {
                try await pool.withConnection { try await $0.execute("SELECT pg_terminate_backend(pg_backend_pid())") }
            }
            #expect(error.isConnectionError)
            let answer = try await pool.withConnection { try #require(try await $0.query("SELECT 41 + 1").first).decode(Int.self) }
            #expect(answer == 42)
        }
    }

    @Test func unreachableServerFailsWithAConnectionError() async throws {
        let nowhere = FileManager.default.temporaryDirectory.appendingPathComponent("no-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: nowhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: nowhere) }
        let configuration = PostgresConfiguration(unixSocketDirectory: nowhere.path, user: "postgres", database: "postgres")
        let pool = ConnectionPool(configuration: configuration, size: 2, logger: TestCluster.logger)
        let error = try await #require(throws: PostgresError.self) {
            try await pool.withConnection { try await $0.execute("SELECT 1") }
        }
        await pool.shutdown()
        #expect(error.code == .connectionFailed)
        #expect(error.isConnectionError)
    }

    @Test func callerWaitingLongerThanTheCheckoutTimeoutGetsAPoolTimeout() async throws {
        try await TestCluster.withPool(size: 1, checkoutTimeout: .milliseconds(200)) { pool in
            let (holding, heldSignal) = AsyncStream<Void>.makeStream()
            let (release, releaseSignal) = AsyncStream<Void>.makeStream()
            let holder = Task {
                try await pool.withConnection { _ in
                    heldSignal.yield()
                    for await _ in release { break }
                }
            }
            for await _ in holding { break }
            let error = try await #require(throws: PostgresError.self) {
                try await pool.withConnection { try await $0.execute("SELECT 1") }
            }
            #expect(error.code == .poolTimeout)
            #expect(error.isConnectionError)
            releaseSignal.yield()
            try await holder.value
            #expect(pool.statistics.waiting == 0)
            #expect(pool.statistics.checkoutTimeouts == 1, "counted, for storesync_db_pool_timeouts_total")
            try await pool.withConnection { try await $0.execute("SELECT 1") }
            #expect(pool.statistics.checkoutTimeouts == 1, "a checkout served in time is not one")
        }
    }

    @Test func waitersAreServedInArrivalOrder() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            let order = OrderRecorder()
            let (holding, heldSignal) = AsyncStream<Void>.makeStream()
            let (release, releaseSignal) = AsyncStream<Void>.makeStream()
            let holder = Task {
                try await pool.withConnection { _ in
                    heldSignal.yield()
                    for await _ in release { break }
                }
            }
            for await _ in holding { break }
            var waiters: [Task<Void, any Error>] = []
            for number in 0..<5 {
                waiters.append(Task { try await pool.withConnection { _ in await order.append(number) } })
                // Each waiter must be queued before the next one arrives.
                while pool.statistics.waiting < number + 1 { await Task.yield() }
            }
            releaseSignal.yield()
            try await holder.value
            for waiter in waiters { try await waiter.value }
            #expect(await order.values == [0, 1, 2, 3, 4])
        }
    }

    @Test func shutdownFailsNewCallersWithPoolShutDown() async throws {
        let configuration = try await TestCluster.makeDatabase()
        let pool = ConnectionPool(configuration: configuration, size: 2, logger: TestCluster.logger)
        try await pool.withConnection { try await $0.execute("SELECT 1") }
        await pool.shutdown()
        let error = try await #require(throws: PostgresError.self) {
            try await pool.withConnection { try await $0.execute("SELECT 1") }
        }
        #expect(error.code == .poolShutDown)
        await pool.shutdown()
    }

    @Test func leftOpenTransactionIsRolledBackBeforeTheNextLease() async throws {
        try await TestCluster.withPool(size: 1) { pool in
            try await pool.withConnection { connection in
                try await connection.execute("CREATE TABLE notes (body text)")
                try await connection.execute("BEGIN")
                try await connection.execute("INSERT INTO notes VALUES ('uncommitted')")
            }
            let count = try await pool.withConnection { try #require(try await $0.query("SELECT count(*) FROM notes").first).decode(Int.self) }
            #expect(count == 0)
        }
    }

    @Test func scriptRunsSeveralStatements() async throws {
        try await TestCluster.withPool { pool in
            try await pool.withConnection { connection in
                try await connection.execute(script: "CREATE TABLE a (x int); INSERT INTO a VALUES (1); INSERT INTO a VALUES (2);")
                let sum = try #require(try await connection.query("SELECT sum(x)::bigint FROM a").first).decode(Int.self)
                #expect(sum == 3)
            }
        }
    }
}

actor OrderRecorder {
    private(set) var values: [Int] = []

    func append(_ value: Int) {
        values.append(value)
    }
}
