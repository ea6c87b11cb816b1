import Metrics
import PostgresLibPQ
import ServiceLifecycle

/// Samples the hot standby's freshness once a second into `storesync_standby_lag_seconds`: how
/// far behind the primary the standby is known to be (−1 while it is unusable: unreachable,
/// not a standby, or not measured yet). Beside `storesync_standby_fallbacks_total`, it shows a
/// standby drifting towards `DATABASE_READ_MAX_LAG_MS` before lookups start falling back.
struct StandbyMetricsService: Service {
    let monitor: StandbyMonitor

    func run() async throws {
        let lag = Gauge(label: "storesync_standby_lag_seconds")
        try? await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                if let freshAsOf = monitor.freshAsOf {
                    lag.record((ContinuousClock.now - freshAsOf) / .seconds(1))
                } else {
                    lag.record(-1)
                }
                try await Task.sleep(for: .seconds(1))
            }
        }
    }
}
