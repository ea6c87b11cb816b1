import AsyncHTTPClient
import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresLibPQ
import ServiceLifecycle
import StoreSyncAPI

/// Sends the queued webhook deliveries (a `Service`, on every server that has
/// `STORESYNC_WEBHOOK_URL`).
///
/// Each round claims due deliveries — at most one per account, the account's oldest pending
/// one — and sends them side by side; then the next round. When nothing is due it waits for a
/// database notification (a delivery queued or retried anywhere) or the poll interval. Claims
/// skip rows other servers hold, so N servers send each delivery once; a 2xx answer delivers
/// it, anything else schedules a retry with exponential backoff until the retry period ends.
final class WebhookDeliveryService: Service, Sendable {
    private let pool: ConnectionPool
    private let sender: WebhookSender
    private let client: HTTPClient
    private let policy: WebhookDeliveryPolicy
    private let now: @Sendable () -> Date
    private let logger: Logger
    private let signal = WakeSignal()
    /// Whether migrations have run: before that the queue's table may not exist yet.
    private let schemaReady = NIOLockedValueBox(false)
    private let deliveries = WebhookDeliveryRepository()
    private let metrics = WebhookMetrics()
    /// How often the queue's gauges are sampled while the loop is busy.
    private static let samplingInterval: Duration = .seconds(5)

    init(
        url: URL, secret: String, policy: WebhookDeliveryPolicy, pool: ConnectionPool,
        now: @escaping @Sendable () -> Date, logger: Logger
    ) {
        let client = WebhookSender.makeClient(policy: policy)
        self.client = client
        sender = WebhookSender(url: url, secret: secret, client: client, timeout: policy.requestTimeout, now: now)
        self.pool = pool
        self.policy = policy
        self.now = now
        self.logger = logger
    }

    /// Starts the next round at once (a delivery was queued or retried).
    func wake() {
        signal.wake()
    }

    /// Called once migrations have run: delivering starts.
    func markSchemaReady() {
        schemaReady.withLockedValue { $0 = true }
        signal.wake()
    }

    func run() async throws {
        let signal = signal
        await withGracefulShutdownHandler {
            var sampled = ContinuousClock.now - Self.samplingInterval
            while !Task.isShuttingDownGracefully, !Task.isCancelled {
                guard schemaReady.withLockedValue({ $0 }) else {
                    await signal.pause(for: policy.pollInterval)
                    continue
                }
                let sent = await deliverDueRound()
                if sent == 0 || ContinuousClock.now - sampled >= Self.samplingInterval {
                    await sampleQueue()
                    sampled = ContinuousClock.now
                }
                if sent == 0 { await signal.pause(for: policy.pollInterval) }
            }
        } onGracefulShutdown: {
            signal.wake()
        }
        try? await client.shutdown()
    }

    /// Claims and sends one round; returns how many were claimed.
    private func deliverDueRound() async -> Int {
        let start = now()
        let claimed: [ClaimedDelivery]
        do {
            claimed = try await pool.withConnection { connection in
                try await deliveries.claim(
                    upTo: policy.concurrentDeliveries, now: start, leaseEnd: start.addingTimeInterval(policy.claimLease),
                    on: connection)
            }
        } catch {
            logger.warning("webhook deliveries could not be claimed", metadata: ["error": "\(error)"])
            return 0
        }
        await withTaskGroup(of: Void.self) { group in
            for delivery in claimed {
                group.addTask { await self.attempt(delivery) }
            }
        }
        return claimed.count
    }

    /// Sends one claimed delivery and records how it went.
    private func attempt(_ delivery: ClaimedDelivery) async {
        let outcome = await sender.send(delivery.event)
        let finished = now()
        var metadata: Logger.Metadata = [
            "storesync.webhook_id": "\(delivery.event.id)", "storesync.account_id": "\(delivery.event.accountId)",
            "storesync.webhook_attempt": "\(delivery.attempt)",
        ]
        var givenUp = false
        do {
            switch outcome {
            case .delivered(let status):
                try await pool.withConnection { connection in
                    try await deliveries.markDelivered(delivery, status: status, at: finished, on: connection)
                }
                logger.debug("webhook delivered", metadata: metadata)
            case .refused(let status, let reason):
                givenUp = policy.givesUp(pendingSince: delivery.pendingSince, at: finished)
                let retryAt = givenUp
                    ? nil : finished.addingTimeInterval(policy.retryDelay(afterAttempts: delivery.attempt))
                try await pool.withConnection { connection in
                    try await deliveries.markAttemptFailed(
                        delivery, status: status, error: reason, retryAt: retryAt, on: connection)
                }
                metadata["storesync.webhook_error"] = "\(reason)"
                if givenUp {
                    logger.error("webhook delivery failed for good; retry it with the admin API", metadata: metadata)
                } else {
                    logger.info("webhook delivery refused; retrying later", metadata: metadata)
                }
            }
        } catch {
            // Its claim ends on its own and the delivery is attempted again: at least once.
            metadata["error"] = "\(error)"
            logger.warning("webhook attempt could not be recorded", metadata: metadata)
        }
        metrics.record(outcome, givenUp: givenUp)
    }

    private func sampleQueue() async {
        do {
            let statistics = try await pool.withConnection { try await deliveries.statistics(on: $0) }
            metrics.record(statistics, at: now())
        } catch {
            logger.debug("webhook queue not sampled", metadata: ["error": "\(error)"])
        }
    }
}
