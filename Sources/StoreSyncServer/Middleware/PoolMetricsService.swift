import Metrics
import PostgresLibPQ
import ServiceLifecycle

/// Samples a connection pool once a second into gauges labelled by the pool (`primary`,
/// `standby`, `health`): its size, connections in use, idle, and tasks waiting for one
/// (`storesync_db_pool_*`); and counts the callers failed because none became free within the
/// checkout timeout (`storesync_db_pool_timeouts_total`), the sign that the pool, not
/// PostgreSQL, is what requests wait for.
struct PoolMetricsService: Service {
    let pool: ConnectionPool
    /// The `pool` label.
    let name: String

    func run() async throws {
        let dimensions = [("pool", name)]
        let size = Gauge(label: "storesync_db_pool_size", dimensions: dimensions)
        let inUse = Gauge(label: "storesync_db_pool_in_use", dimensions: dimensions)
        let idle = Gauge(label: "storesync_db_pool_idle", dimensions: dimensions)
        let waiting = Gauge(label: "storesync_db_pool_waiting", dimensions: dimensions)
        let timeouts = Counter(label: "storesync_db_pool_timeouts_total", dimensions: dimensions)
        try? await cancelWhenGracefulShutdown {
            var timeoutsCounted = 0
            while !Task.isCancelled {
                let statistics = pool.statistics
                size.record(statistics.size)
                inUse.record(statistics.inUse)
                idle.record(statistics.idle)
                waiting.record(statistics.waiting)
                if statistics.checkoutTimeouts > timeoutsCounted {
                    timeouts.increment(by: Int64(statistics.checkoutTimeouts - timeoutsCounted))
                    timeoutsCounted = statistics.checkoutTimeouts
                }
                try await Task.sleep(for: .seconds(1))
            }
        }
    }
}
