import Metrics
import PostgresLibPQ
import ServiceLifecycle

/// Samples the connection pool once a second into gauges: connections in use, idle, and
/// tasks waiting for one (`storesync_db_pool_*`).
struct PoolMetricsService: Service {
    let pool: ConnectionPool

    func run() async throws {
        let inUse = Gauge(label: "storesync_db_pool_in_use")
        let idle = Gauge(label: "storesync_db_pool_idle")
        let waiting = Gauge(label: "storesync_db_pool_waiting")
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                let statistics = pool.statistics
                inUse.record(statistics.inUse)
                idle.record(statistics.idle)
                waiting.record(statistics.waiting)
                try await Task.sleep(for: .seconds(1))
            }
        }
    }
}
