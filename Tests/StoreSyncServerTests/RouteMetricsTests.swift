import Foundation
import StoreSyncServer
import StoreSyncTesting
import Testing

/// `/metrics` counts requests by route, method and status under Hummingbird's metric names.
///
/// Every test server of this process renders one registry (swift-metrics is bootstrapped once),
/// and suites run in parallel, so counts are compared before and after, at least by what this
/// test sent.
@Suite struct RouteMetricsTests {
    private static let live = #"{http_route="/health/live",http_request_method="GET",http_response_status_code="200"}"#
    private static let notFound = #"{http_route="NotFound",http_request_method="GET",http_response_status_code="404"}"#
    private static let unauthorized =
        #"{http_route="/v1/entitlements",http_request_method="GET",http_response_status_code="401"}"#

    private static let unauthorizedError = #"{http_route="/v1/entitlements",http_request_method="GET",error_type="401"}"#
    private static let liveLabels = #"{http_route="/health/live",http_request_method="GET",http_response_status_code="200","#

    @Test func requestsAndTheirDurationsAreCountedByRouteAndStatus() async throws {
        try await withLiveServer { server in
            let before = try await Self.metrics(of: server)
            for _ in 0..<3 { #expect(try await server.send("GET", "/health/live").status == 200) }
            #expect(try await server.send("GET", "/no/such/route").status == 404)
            #expect(try await server.send("GET", "/v1/entitlements").status == 401)
            let after = try await Self.metrics(of: server)

            #expect(after.value("hb_requests" + Self.live) >= before.value("hb_requests" + Self.live) + 3)
            #expect(after.value("http_server_request_duration_count" + Self.live)
                >= before.value("http_server_request_duration_count" + Self.live) + 3)
            #expect(after.value("hb_requests" + Self.notFound) >= before.value("hb_requests" + Self.notFound) + 1)
            #expect(after.value("hb_requests" + Self.unauthorized) >= before.value("hb_requests" + Self.unauthorized) + 1)
            // Problem answers are errors, as Hummingbird counts thrown ones; a success is not.
            #expect(after.value("hb_request_errors" + Self.unauthorizedError)
                >= before.value("hb_request_errors" + Self.unauthorizedError) + 1)
            #expect(!after.text.contains(#"error_type="200""#))
            // Buckets below 5 ms: a lookup answered in well under a millisecond is told apart.
            let buckets = after.text.split(separator: "\n").filter {
                $0.hasPrefix("http_server_request_duration_bucket" + Self.liveLabels)
            }
            #expect(buckets.contains { $0.contains(#"le="0.00025""#) }, "\(buckets)")
        }
    }

    private static func metrics(of server: TestServer) async throws -> MetricsSamples {
        let response = try await server.send("GET", "/metrics")
        #expect(response.status == 200)
        return MetricsSamples(response.body)
    }
}
