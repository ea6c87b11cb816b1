import Foundation
import Logging
import PostgresLibPQ
import PostgresLibPQTesting
import Testing

/// ``StandbyMonitor`` on a real primary and hot standby: how far the standby has replayed, as
/// a moment in time.
@Suite struct StandbyMonitorTests {
    /// A liveness bound for replication to catch up, not a performance assertion.
    static let patience: Duration = .seconds(60)

    static func withMonitor(
        primary: PostgresConfiguration, standby: PostgresConfiguration, _ body: (StandbyMonitor, ConnectionPool) async throws -> Void
    ) async throws {
        let primaryPool = ConnectionPool(configuration: primary, size: 1, logger: TestCluster.logger)
        let standbyPool = ConnectionPool(configuration: standby, size: 1, checkoutTimeout: .seconds(5), logger: TestCluster.logger)
        let monitor = StandbyMonitor(primary: primaryPool, standby: standbyPool, interval: .milliseconds(50), logger: TestCluster.logger)
        do {
            try await body(monitor, primaryPool)
        } catch {
            await primaryPool.shutdown()
            await standbyPool.shutdown()
            throw error
        }
        await primaryPool.shutdown()
        await standbyPool.shutdown()
    }

    /// Measures until the standby is fresh as of `moment`, or patience runs out.
    static func measure(_ monitor: StandbyMonitor, untilFreshAsOf moment: ContinuousClock.Instant) async throws -> Bool {
        let deadline = ContinuousClock.now + patience
        while ContinuousClock.now < deadline {
            await monitor.measure()
            if let freshAsOf = monitor.freshAsOf, freshAsOf >= moment { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    @Test func aStreamingStandbyBecomesFreshAsOfAMomentAfterAWrite() async throws {
        let databases = try await TestReplication.makeDatabase()
        try await Self.withMonitor(primary: databases.primary, standby: databases.standby) { monitor, primary in
            #expect(monitor.status == .unknown)
            try await primary.withConnection { try await $0.execute("CREATE TABLE written (id int)") }
            let written = ContinuousClock.now
            #expect(try await Self.measure(monitor, untilFreshAsOf: written))
            guard case .replaying = monitor.status else {
                Issue.record("expected a replaying standby, got \(monitor.status)")
                return
            }
        }
    }

    /// Replay paused (as a standby busy with a long query, or cut off, would be): however often
    /// it is measured, the standby stays fresh only as of before the write it has not replayed.
    @Test func aStandbyThatHasNotReplayedAWriteIsNeverFreshAsOfItsMoment() async throws {
        let standby = try await TestReplication.extraStandby(named: "paused")
        let database = try await TestReplication.makeDatabase()
        var standbyDatabase = standby.configuration
        standbyDatabase.database = database.primary.database
        let control = ConnectionPool(configuration: standbyDatabase, size: 1, logger: TestCluster.logger)
        do {
            try await Self.withMonitor(primary: database.primary, standby: standbyDatabase) { monitor, primary in
                #expect(try await Self.measure(monitor, untilFreshAsOf: .now))
                try await control.withConnection { try await $0.execute("SELECT pg_wal_replay_pause()") }
                let beforeWrite = ContinuousClock.now
                try await primary.withConnection { try await $0.execute("CREATE TABLE unreplayed (id int)") }
                for _ in 0..<10 {
                    await monitor.measure()
                    let freshAsOf = try #require(monitor.freshAsOf)
                    #expect(freshAsOf < beforeWrite)
                }
                try await control.withConnection { try await $0.execute("SELECT pg_wal_replay_resume()") }
                #expect(try await Self.measure(monitor, untilFreshAsOf: beforeWrite), "it catches up once replay resumes")
            }
        } catch {
            await control.shutdown()
            try? await standby.stop()
            throw error
        }
        await control.shutdown()
        try await standby.stop()
    }

    @Test func aServerThatIsNotInRecoveryIsNoStandby() async throws {
        let databases = try await TestReplication.makeDatabase()
        try await Self.withMonitor(primary: databases.primary, standby: databases.primary) { monitor, _ in
            await monitor.measure()
            #expect(monitor.status == .notStandby)
            #expect(monitor.freshAsOf == nil)
        }
    }

    @Test func aStandbyThatDoesNotAnswerIsUnreachable() async throws {
        let databases = try await TestReplication.makeDatabase()
        let nowhere = PostgresConfiguration(
            unixSocketDirectory: FileManager.default.temporaryDirectory.appendingPathComponent("no-standby-here").path,
            user: "postgres", database: "postgres")
        try await Self.withMonitor(primary: databases.primary, standby: nowhere) { monitor, _ in
            await monitor.measure()
            #expect(monitor.status == .unreachable)
            #expect(monitor.freshAsOf == nil)
        }
    }
}
