import Metrics
public import Prometheus

/// One Prometheus registry for the test process: swift-metrics can be bootstrapped only once,
/// and every test server renders this registry at `/metrics`.
public enum TestMetrics {
    public static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()
}
