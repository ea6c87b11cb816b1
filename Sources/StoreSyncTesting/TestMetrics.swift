import Metrics
public import Prometheus
import StoreSyncServer

/// One Prometheus registry for the test process: swift-metrics can be bootstrapped only once,
/// and every test server renders this registry at `/metrics`.
public enum TestMetrics {
    public static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory.storeSync(registry: registry))
        return registry
    }()

    /// Every series of the registry now, read in process: for a test where a request for
    /// `/metrics` would change what it measures (a connection of its own, say).
    public static func samples() -> MetricsSamples {
        MetricsSamples(registry.emitToBuffer())
    }
}
