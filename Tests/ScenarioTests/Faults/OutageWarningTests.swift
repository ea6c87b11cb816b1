import Foundation
import Logging
import PostgresLibPQ
import PostgresLibPQTesting
import StoreSyncAPI
import StoreSyncServer
import StoreSyncTesting
import Testing

/// While PostgreSQL is down every request fails the same way: the log says so once (not once a
/// request, which would bury it), and the failures are counted in a metric.
@Suite struct OutageWarningTests {
    @Test func requestsFailingWhileTheDatabaseIsDownAreWarnedOfOnceAndCounted() async throws {
        let (cluster, database) = try await TestCluster.dedicated(named: "outage-warnings")
        let captured = CapturedLog()
        let setup = try await TestSetup.make(database: database, configure: { $0.logLevel = .info })
        let server = try await TestServer.start(serving: setup, logger: captured.logger())
        do {
            let account = try await server.signUp()
            let series = #"storesync_db_errors_total{kind="unavailable"}"#
            let before = MetricsSamples(try await server.send("GET", "/metrics").body).value(series)
            try await cluster.stop(mode: .fast)

            for _ in 0..<40 {
                #expect(try await server.send("GET", "/v1/entitlements", token: account.token).status == 503)
            }
            let warnings = captured.lines.filter { $0.contains("database unavailable") }
            #expect(warnings.count <= 1, "one line per outage, not one per request: \(warnings.count)")
            let after = MetricsSamples(try await server.send("GET", "/metrics").body).value(series)
            #expect(after >= before + 40, "every failure is counted")
        } catch {
            await server.stop()
            try? await cluster.stop()
            throw error
        }
        await server.stop()
        try? FileManager.default.removeItem(at: cluster.directory)
    }
}
