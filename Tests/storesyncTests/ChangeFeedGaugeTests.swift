import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import StoreSyncTesting
import Testing

/// `storesync_change_feed_live` says whether a server hears the changes other servers make
/// (its caches serve) or reads every answer from PostgreSQL. Measured on a `storesync serve`
/// child of its own: in the test process every server shares one metrics registry.
@Suite struct ChangeFeedGaugeTests {
    @Test func theGaugeFollowsTheListenerThroughAnOutage() async throws {
        try await TestCluster.withDedicated(named: "feed-gauge") { cluster, database in
            let directory = try StoreSyncBinary.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let server = try await ServerProcess.start(
                executable: StoreSyncBinary.url, port: try FreePort.find(),
                settings: [
                    "STORESYNC_BUNDLE_ID": "com.example.storesync", "STORESYNC_ENVIRONMENT": "Sandbox",
                    "DATABASE_URL": TestCluster.url(of: database), "LOG_LEVEL": "notice",
                ],
                logFile: directory.appendingPathComponent("serve.log"))
            func live() async throws -> Double? {
                let page = MetricsSamples(try await server.send("GET", "/metrics").body)
                guard page.text.contains("\nstoresync_change_feed_live ") else { return nil }
                return page.value("storesync_change_feed_live")
            }
            do {
                let listening = try await eventually(within: .seconds(60)) { try await live() == 1 }
                #expect(listening, "live once the listener is connected")
                try await cluster.stop(mode: .fast)
                let lost = try await eventually(within: .seconds(60)) { try await live() == 0 }
                #expect(lost, "0 while PostgreSQL is down: \(server.logTail())")
                try await cluster.start()
                let back = try await eventually { try await live() == 1 }
                #expect(back, "1 again once the listener reconnects: \(server.logTail())")
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
        }
    }
}
