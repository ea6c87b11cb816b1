import Hummingbird
import Logging
import NIOCore
import Prometheus

/// `GET /metrics`: the registry in Prometheus' text format, on the API port or — with
/// `METRICS_PORT` — on a listener of its own that a deployment keeps off the public network.
enum MetricsPage {
    /// The page as an HTTP response.
    static func response(_ registry: PrometheusCollectorRegistry) -> Response {
        Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: registry.emitToString())))
    }

    /// A server with `/metrics` alone, listening on `host`:`port`; a service to add to the
    /// application.
    static func server(
        registry: PrometheusCollectorRegistry, host: String, port: Int, logger: Logger
    ) -> some ApplicationProtocol {
        let router = Router()
        router.get("metrics") { _, _ in response(registry) }
        return Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "StoreSync"),
            onServerRunning: { channel in
                logger.notice("metrics are served on http://\(host):\(channel.localAddress?.port ?? port)/metrics")
            },
            logger: logger)
    }
}
