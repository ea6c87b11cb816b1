import Foundation
import Metrics

/// The webhook's metrics: what waits and has failed in the whole deployment (gauges sampled
/// from the database, the same on every server), and what this server delivered, will retry
/// and gave up (counters, summed across servers).
struct WebhookMetrics: Sendable {
    private let pending = Gauge(label: "storesync_webhook_pending")
    private let failedNow = Gauge(label: "storesync_webhook_failed")
    private let oldestPendingAge = Gauge(label: "storesync_webhook_oldest_pending_age_seconds")
    /// When the gauges above were last read from the database: they keep their last values
    /// while it cannot be read, and an alert on the age must know they went stale.
    private let sampledAt = Gauge(label: "storesync_webhook_queue_sampled_timestamp_seconds")
    private let delivered = Counter(label: "storesync_webhook_delivered_total")
    private let retried = Counter(label: "storesync_webhook_retries_total")
    private let gaveUp = Counter(label: "storesync_webhook_failed_total")

    func record(_ statistics: WebhookQueueStatistics, at now: Date) {
        pending.record(statistics.pending)
        failedNow.record(statistics.failed)
        oldestPendingAge.record(max(0, statistics.oldestPendingSince.map { now.timeIntervalSince($0) } ?? 0))
        sampledAt.record(now.timeIntervalSince1970)
    }

    func record(_ outcome: WebhookSender.Outcome, givenUp: Bool) {
        switch outcome {
        case .delivered: delivered.increment()
        case .refused where givenUp: gaveUp.increment()
        case .refused: retried.increment()
        }
    }
}
