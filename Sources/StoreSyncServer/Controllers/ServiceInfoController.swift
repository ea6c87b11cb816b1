import Foundation
import Hummingbird
import Prometheus
import StoreSyncAPI

/// `GET /v1/signing-key`, `GET /metrics`, `GET /openapi.yaml`.
struct ServiceInfoController {
    let snapshots: SnapshotService
    let metrics: PrometheusCollectorRegistry
    let openAPIDocument: Data

    func addRoutes(to router: Router<StoreSyncRequestContext>) {
        router.get("v1/signing-key") { _, _ in
            SigningKeyResponse(algorithm: "Ed25519", publicKey: snapshots.publicKey)
        }
        router.get("metrics") { _, _ in
            let text = metrics.emitToString()
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
        router.get("openapi.yaml") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/yaml"],
                body: .init(byteBuffer: ByteBuffer(bytes: openAPIDocument)))
        }
    }
}
