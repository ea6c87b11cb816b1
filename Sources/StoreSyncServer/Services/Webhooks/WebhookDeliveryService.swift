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
/// It keeps up to ``WebhookDeliveryPolicy/concurrentDeliveries`` attempts under way: whenever
/// one ends, a database notification arrives (a delivery queued or retried anywhere) or the poll
/// interval passes, it claims due deliveries for the free places — at most one per account, the
/// account's oldest pending one — and sends each on its own, so a slow receiver answer holds up
/// only its account. Claims skip rows other servers hold, so N servers send each delivery once;
/// a 2xx answer delivers it, anything else schedules a retry with exponential backoff until the
/// retry period ends.
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
    /// Attempts under way on this server.
    private let underWay = NIOLockedValueBox(0)
    /// Whether the last claim failed: its warning is written when claims start failing.
    private let claimFailing = NIOLockedValueBox(false)
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

    /// Claims at once (a delivery was queued or retried).
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
            await withDiscardingTaskGroup { attempts in
                var sampled = ContinuousClock.now - Self.samplingInterval
                while !Task.isShuttingDownGracefully, !Task.isCancelled {
                    if schemaReady.withLockedValue({ $0 }) {
                        for delivery in await claimDue() {
                            attempts.addTask { await self.attempt(delivery) }
                        }
                        if ContinuousClock.now - sampled >= Self.samplingInterval {
                            await sampleQueue()
                            sampled = ContinuousClock.now
                        }
                    }
                    await signal.pause(for: policy.pollInterval)
                }
            }
        } onGracefulShutdown: {
            signal.wake()
        }
        try? await client.shutdown()
    }

    /// Claims due deliveries for the free places and counts them as under way.
    private func claimDue() async -> [ClaimedDelivery] {
        let free = policy.concurrentDeliveries - underWay.withLockedValue { $0 }
        guard free > 0 else { return [] }
        let start = now()
        do {
            let claimed = try await pool.withConnection { connection in
                try await deliveries.claim(
                    upTo: free, now: start, leaseEnd: start.addingTimeInterval(policy.claimLease), on: connection)
            }
            underWay.withLockedValue { $0 += claimed.count }
            if claimFailing.withLockedValue({ failing in defer { failing = false }; return failing }) {
                logger.notice("webhook deliveries are claimed again")
            }
            return claimed
        } catch {
            // Once per outage, not once per poll: the loop asks every second.
            let first = claimFailing.withLockedValue { failing in defer { failing = true }; return !failing }
            logger.log(
                level: first ? .warning : .debug, "webhook deliveries could not be claimed", metadata: ["error": "\(error)"])
            return []
        }
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
        var recorded = false
        do {
            switch outcome {
            case .delivered(let status):
                recorded = try await pool.withConnection { connection in
                    try await deliveries.markDelivered(delivery, status: status, at: finished, on: connection)
                }
                logger.debug("webhook delivered", metadata: metadata)
            case .refused(let status, let reason):
                givenUp = policy.givesUp(pendingSince: delivery.pendingSince, at: finished)
                let retryAt = givenUp
                    ? nil : finished.addingTimeInterval(policy.retryDelay(afterAttempts: delivery.attempt))
                recorded = try await pool.withConnection { connection in
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
            if !recorded {
                logger.debug("webhook attempt outlived its claim; the newer attempt records the result", metadata: metadata)
            }
        } catch {
            // Its claim ends on its own and the delivery is attempted again: at least once.
            metadata["error"] = "\(error)"
            logger.warning("webhook attempt could not be recorded", metadata: metadata)
        }
        // Counted once per recorded result: an attempt whose claim ran out (another server
        // claimed the delivery again and will count its own attempt), or whose result could
        // not be written, is not, so the counters say what the queue says.
        if recorded { metrics.record(outcome, givenUp: givenUp) }
        // A place is free, and the account's next event may be due now.
        underWay.withLockedValue { $0 -= 1 }
        signal.wake()
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
