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
}
