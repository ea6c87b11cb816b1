import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import Testing

@Suite struct EmbeddedPostgresTests {
    private func scratchDirectory(_ name: String = UUID().uuidString) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("storesync-embedded-\(name)")
    }

    private func answer(_ configuration: PostgresConfiguration, _ query: PostgresQuery) async throws -> String {
        let pool = ConnectionPool(configuration: configuration, size: 1, logger: TestCluster.logger)
        do {
            let value = try await pool.withConnection { try #require(try await $0.query(query).first).decode(String.self) }
            await pool.shutdown()
            return value
        } catch {
            await pool.shutdown()
            throw error
        }
    }

    @Test func startStopAndRestartKeepsTheData() async throws {
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = EmbeddedPostgres(directory: directory, options: .forTesting, logger: TestCluster.logger)
        try await cluster.start()
        try await cluster.start()  // already running: nothing to do
        let pool = ConnectionPool(configuration: cluster.configuration, size: 1, logger: TestCluster.logger)
        try await pool.withConnection { connection in
            try await connection.execute("CREATE TABLE kept (note text)")
            try await connection.execute("INSERT INTO kept VALUES (\("survives a restart"))")
        }
        await pool.shutdown()
        try await cluster.stop()
        await #expect(throws: PostgresError.self) { try await answer(cluster.configuration, "SELECT 'up'") }
        try await cluster.start()
        #expect(try await answer(cluster.configuration, "SELECT note FROM kept") == "survives a restart")
        try await cluster.stop()
        try await cluster.stop()  // already stopped: nothing to do
    }

    @Test func poolSurvivesAServerRestartAndFailsFastWhileItIsDown() async throws {
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = EmbeddedPostgres(directory: directory, options: .forTesting, logger: TestCluster.logger)
        try await cluster.start()
        let pool = ConnectionPool(configuration: cluster.configuration, size: 2, logger: TestCluster.logger)
        let before = try await pool.withConnection { try #require(try await $0.query("SELECT pg_backend_pid()").first).decode(Int32.self) }
        try await cluster.stop()
        let down = try await #require(throws: PostgresError.self) {
            try await pool.withConnection { try await $0.execute("SELECT 1") }
        }
        #expect(down.isConnectionError)
        try await cluster.start()
        let after = try await pool.withConnection { try #require(try await $0.query("SELECT pg_backend_pid()").first).decode(Int32.self) }
        #expect(after != before)
        await pool.shutdown()
        try await cluster.stop()
    }

    @Test func statementOnAConnectionAnImmediateShutdownKilledIsAConnectionError() async throws {
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let cluster = EmbeddedPostgres(directory: directory, options: .forTesting, logger: TestCluster.logger)
        try await cluster.start()
        let pool = ConnectionPool(configuration: cluster.configuration, size: 1, logger: TestCluster.logger)
        // Mid-transaction the pool does not check the connection before each statement: the
        // statement itself meets the dead socket, and libpq reports that without a SQLSTATE.
        let cutOff = try await #require(throws: PostgresError.self) {
            try await pool.withConnection { connection in
                try await connection.execute("BEGIN")
                try await connection.execute("SELECT \(1)")
                try await cluster.stop(mode: .immediate)
                try await connection.execute("SELECT \(2)")
            }
        }
        #expect(cutOff.isConnectionError, "\(String(reflecting: cutOff))")
        try await cluster.start()
        let answer = try await pool.withConnection { try #require(try await $0.query("SELECT 'back'").first).decode(String.self) }
        #expect(answer == "back")
        await pool.shutdown()
        try await cluster.stop()
    }

    @Test func listensOnTheUnixSocketOnly() async throws {
        let cluster = try await TestCluster.cluster()
        #expect(try await answer(cluster.configuration, "SHOW listen_addresses") == "")
        #expect(cluster.configuration.usesUnixSocket)
    }

    @Test func startingAsRootRunsTheServerAsAnUnprivilegedAccount() async throws {
        let cluster = try await TestCluster.cluster()
        let pidText = try String(contentsOf: cluster.dataDirectory.appendingPathComponent("postmaster.pid"), encoding: .utf8)
        let postmaster = try #require(pidText.split(whereSeparator: \.isNewline).first.flatMap { Int32($0) })
        let serverUID = try #require(Self.realUID(ofProcess: postmaster))
        if getuid() == 0 {
            #expect(serverUID != 0)
        } else {
            #expect(serverUID == getuid())
        }
        #expect(try await answer(cluster.configuration, "SELECT current_user::text") == "postgres")
    }

    @Test func longDirectoryPathGetsAShortSocketPath() async throws {
        let deep = scratchDirectory(String(repeating: "long-segment-", count: 8) + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: deep) }
        let cluster = EmbeddedPostgres(directory: deep, options: .forTesting, logger: TestCluster.logger)
        let socket = try #require(cluster.configuration.host)
        #expect((socket + "/.s.PGSQL.5432").utf8.count <= 100)
        try await cluster.start()
        #expect(try await answer(cluster.configuration, "SELECT 'reachable'") == "reachable")
        try await cluster.stop()
        try? FileManager.default.removeItem(atPath: socket)
    }

    /// `storesync migrate` while `storesync serve` runs, or a second server on the same
    /// directory: whoever finds the cluster running and in use leaves it running.
    @Test func aSecondUserOfARunningClusterLeavesItRunningForItsOwner() async throws {
        let directory = scratchDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let owner = EmbeddedPostgres(directory: directory, options: .forTesting, logger: TestCluster.logger)
        try await owner.start()
        let guest = EmbeddedPostgres(directory: directory, options: .forTesting, logger: TestCluster.logger)
        try await guest.start()
        #expect(try await answer(guest.configuration, "SELECT 'shared'") == "shared")

        try await guest.stop()

        #expect(try await answer(owner.configuration, "SELECT 'still up'") == "still up")
        try await owner.stop()
        await #expect(throws: PostgresError.self) { try await answer(owner.configuration, "SELECT 'down'") }
    }

    /// A running server found on a long path listens where it was started, in a directory
    /// under `/tmp` another object made: the newcomer connects there, not to its own.
    @Test func aServerFoundRunningOnALongPathIsReachedOnItsOwnSocket() async throws {
        let deep = scratchDirectory(String(repeating: "long-segment-", count: 8) + UUID().uuidString)
        defer { try? FileManager.default.removeItem(at: deep) }
        let first = EmbeddedPostgres(directory: deep, options: .forTesting, logger: TestCluster.logger)
        try await first.start()
        let socket = try #require(first.configuration.host)
        let second = EmbeddedPostgres(directory: deep, options: .forTesting, logger: TestCluster.logger)
        try await second.start()

        #expect(second.configuration.host == socket)
        #expect(try await answer(second.configuration, "SELECT 'reachable'") == "reachable")
        try await second.stop()
        try await first.stop()
        try? FileManager.default.removeItem(atPath: socket)
    }

    @Test func missingBinariesGiveOneLineSayingWhatToInstall() async throws {
        var options = EmbeddedPostgres.Options.forTesting
        options.binDirectory = URL(fileURLWithPath: "/nonexistent/postgresql/bin")
        let cluster = EmbeddedPostgres(directory: scratchDirectory(), options: options, logger: TestCluster.logger)
        let error = try await #require(throws: EmbeddedPostgresError.self) { try await cluster.start() }
        #expect(error.description.contains("install"))
        #expect(!error.description.contains("\n"))
    }

    @Test func databasesAreCreatedAndDropped() async throws {
        let cluster = try await TestCluster.cluster()
        let name = "scratch_\(UUID().uuidString.prefix(8).lowercased())"
        try await cluster.createDatabase(named: name)
        let error = try await #require(throws: PostgresError.self) { try await cluster.createDatabase(named: name) }
        #expect(error.code == .duplicateDatabase)
        var configuration = cluster.configuration
        configuration.database = name
        #expect(try await answer(configuration, "SELECT current_database()::text") == name)
        try await cluster.dropDatabase(named: name)
        let gone = try await #require(throws: PostgresError.self) { try await answer(configuration, "SELECT 'x'") }
        #expect(gone.isConnectionError)
    }

    @Test(arguments: ["", String(repeating: "x", count: 64), "nul\u{0}byte"])
    func invalidDatabaseNamesAreRejected(name: String) async throws {
        let cluster = try await TestCluster.cluster()
        await #expect(throws: EmbeddedPostgresError.invalidDatabaseName(name)) { try await cluster.createDatabase(named: name) }
    }

    /// The real user id of a process, from /proc (Linux) — nil where /proc does not exist.
    private static func realUID(ofProcess pid: Int32) -> uid_t? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        let line = status.split(whereSeparator: \.isNewline).first { $0.hasPrefix("Uid:") }
        return line?.split(whereSeparator: \.isWhitespace).dropFirst().first.flatMap { uid_t($0) }
    }
}
