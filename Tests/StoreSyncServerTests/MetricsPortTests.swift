import Foundation
import StoreSyncServer
import StoreSyncTesting
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// With `METRICS_PORT`, `/metrics` is served there and not on the API port (DESIGN §7).
@Suite struct MetricsPortTests {
    @Test func metricsMoveToTheirOwnPort() async throws {
        let metricsPort = try FreePort.find()
        try await withLiveServer(configure: { $0.metricsPort = metricsPort }) { server in
            #expect(try await server.send("GET", "/metrics").status == 404)
            #expect(try await server.send("GET", "/health/live").status == 200)
            let (body, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(metricsPort)/metrics")!)
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            #expect(MetricsSamples(body).text.contains("storesync_db_pool_in_use"))
            let (_, other) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(metricsPort)/v1/catalog")!)
            #expect((other as? HTTPURLResponse)?.statusCode == 404, "the metrics port serves /metrics alone")
        }
    }
}
