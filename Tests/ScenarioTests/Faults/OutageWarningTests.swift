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
        try await TestCluster.withDedicated(named: "outage-warnings") { cluster, database in
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
                throw error
            }
            await server.stop()
        }
    }

    /// The background loops that poll PostgreSQL (webhook claims every 20 ms here, the change
    /// listener's reconnects) say once that they started failing, not once a try, and say when
    /// they work again.
    @Test func backgroundLoopsWarnOnceWhenTheDatabaseGoesAndSayWhenItIsBack() async throws {
        try await TestCluster.withDedicated(named: "loop-warnings") { cluster, database in
            let captured = CapturedLog()
            let setup = try await TestSetup.make(database: database, configure: {
                $0.logLevel = .info
                $0.database.listenURL = TestCluster.url(of: database)
                $0.webhookURL = URL(string: "http://127.0.0.1:9/hooks")!
                $0.webhookSecret = "whsec-test-0123456789abcdef"
                $0.webhookDelivery.pollInterval = 0.02
            })
            let server = try await TestServer.start(serving: setup, logger: captured.logger())
            do {
                func count(_ text: String) -> Int { captured.lines.filter { $0.contains(text) }.count }
                func warnings(_ text: String) -> Int { captured.lines.filter { $0.hasPrefix("warning") && $0.contains(text) }.count }
                try await cluster.stop(mode: .fast)
                let warned = try await eventually {
                    count("webhook deliveries could not be claimed") >= 1 && count("change listener lost PostgreSQL") >= 1
                }
                #expect(warned, "\(captured.lines.suffix(20))")
                // Dozens more claims fail meanwhile (one every 20 ms): still one warning each.
                try await Task.sleep(for: .seconds(1))
                #expect(warnings("webhook deliveries could not be claimed") == 1)
                #expect(warnings("change listener lost PostgreSQL") == 1)

                try await cluster.start()
                let recovered = try await eventually {
                    count("webhook deliveries are claimed again") == 1 && count("change listener reconnected to PostgreSQL") == 1
                }
                #expect(recovered, "\(captured.lines.suffix(20))")
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
        }
    }
}
