public import Prometheus

extension PrometheusMetricsFactory {
    /// The factory `storesync serve` records its metrics with: Prometheus's, with request
    /// durations in buckets that see the hot path. The default buckets start at 5 ms, and a
    /// cached lookup takes well under 1 ms: every one fell in the first bucket, so a p99 read
    /// from `/metrics` said ~5 ms whatever it was. These run from 0.25 ms to 30 s (the App
    /// Store's test notification waits up to 20 s). Notifications' lag has buckets of its own
    /// (``NotificationService/lagBuckets``).
    ///
    /// - Parameter registry: Where the metrics are kept, rendered at `/metrics`.
    /// - Returns: The factory, for `MetricsSystem.bootstrap`.
    public static func storeSync(registry: PrometheusCollectorRegistry) -> PrometheusMetricsFactory {
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets[RouteMetricsCache.durationLabel] = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .microseconds(2_500), .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250),
            .milliseconds(500), .seconds(1), .milliseconds(2_500), .seconds(5), .seconds(10), .seconds(30),
        ]
        factory.valueHistogramBuckets[NotificationService.lagLabel] = NotificationService.lagBuckets
        return factory
    }
}
