import Foundation
import Hummingbird
import Prometheus
import StoreSyncAPI

/// `GET /v1/signing-key`, `GET /metrics` (unless it has a port of its own), `GET /openapi.yaml`.
struct ServiceInfoController {
    let snapshots: SnapshotService
    /// The registry `/metrics` renders on the API port; `nil` when `METRICS_PORT` serves it.
    let metrics: PrometheusCollectorRegistry?
    let openAPIDocument: Data

    func addRoutes(to router: Router<StoreSyncRequestContext>) {
        router.get("v1/signing-key") { _, _ in
            SigningKeyResponse(algorithm: "Ed25519", publicKey: snapshots.publicKey)
        }
        if let metrics {
            router.get("metrics") { _, _ in MetricsPage.response(metrics) }
        }
        router.get("openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml"],
                body: .init(byteBuffer: ByteBuffer(bytes: openAPIDocument)))
        }
    }
}
