import Foundation
import Logging
import Metrics
import PostgresLibPQ
import ServiceLifecycle

/// Refreshes, through ``ReconciliationService``, the subscriptions that should have renewed or
/// expired without a notification saying so: their latest expiry passed within the last day,
/// no newer record of the chain is stored, and they were not reconciled since.
///
/// One server at a time runs it, whichever servers share the database: the job holds a lease
/// row (``JobLeaseRepository``) renewed before every refresh and given up when the server
/// stops; the lease of a server that died expires. Refreshes are spaced so that at most
/// `perMinute` run a minute. Graceful shutdown cancels the wait or the refresh in progress.
struct ReconciliationJob: Service {
    let pool: ConnectionPool
    let reconciliation: ReconciliationService
    let gate: StartupGate
    /// Refreshes per minute at most; 0 turns the job off.
    let perMinute: Int
    /// How long to wait before looking again when nothing is due or the lease is held elsewhere.
    let idleInterval: Duration
    let logger: Logger

    /// This server's name on the lease.
    let holder = UUID()

    /// The lease's name.
    static let job = "subscription-reconciliation"
    /// How long before now an expiry may lie and still be due.
    static let window: TimeInterval = 86_400
    /// How long a lease lasts unless renewed.
    static let leaseSeconds = 300

    private let leases = JobLeaseRepository()
    private let reconciliations = ReconciliationRepository()

    func run() async throws {
        guard perMinute > 0, !reconciliation.apple.clients.isEmpty else {
            try? await gracefulShutdown()
            return
        }
        try? await cancelWhenGracefulShutdown {
            try await gate.wait()
            while !Task.isCancelled {
                try await Task.sleep(for: await pass())
            }
        }
        do {
            try await pool.withConnection { try await leases.release(Self.job, holder: holder, on: $0) }
        } catch {
            logger.debug("reconciliation lease not released; it expires", metadata: ["error": "\(error)"])
        }
    }

    /// Refreshes what is due while this server holds the lease.
    ///
    /// - Returns: How long to wait before the next pass.
    func pass() async -> Duration {
        do {
            guard try await acquireLease() else { return idleInterval }
            let now = reconciliation.now()
            let due = try await pool.withConnection { connection in
                try await reconciliations.dueSubscriptions(
                    from: now.addingTimeInterval(-Self.window), to: now, limit: max(1, perMinute), on: connection)
            }
            guard !due.isEmpty else { return idleInterval }
            for subscription in due {
                guard try await acquireLease(), try await refresh(subscription) else { return idleInterval }
                try await Task.sleep(for: .seconds(60) / perMinute)
            }
            return .zero
        } catch is CancellationError {
            return .zero
        } catch {
            logger.warning("subscription reconciliation failed", metadata: ["error": "\(error)"])
            return idleInterval
        }
    }

    private func acquireLease() async throws -> Bool {
        try await pool.withConnection { connection in
            try await leases.acquire(Self.job, holder: holder, seconds: Self.leaseSeconds, on: connection)
        }
    }

    /// Counts a subscription asked of Apple by result (`storesync_reconciliations_total`): a
    /// job that stopped working shows as a flat `refreshed` line, a failing one as `failed`.
    private static func count(_ result: String) {
        Counter(label: "storesync_reconciliations_total", dimensions: [("result", result)]).increment()
    }

    /// Refreshes one subscription; answers whether to go on with the next one.
    private func refresh(_ subscription: DueSubscription) async throws -> Bool {
        let id = subscription.originalTransactionId
        do {
            if try await reconciliation.refresh(id) == nil {
                try await markReconciled(id)
            }
            Self.count("refreshed")
            return true
        } catch let failure as AppStoreAPIFailure {
            Self.count("failed")
            logger.warning(
                "subscription not reconciled",
                metadata: [
                    "appstore.original_transaction_id": "\(id)", "storesync.expired_at": "\(subscription.expiresDate)",
                    "error": "\(failure)",
                ])
            guard failure.concernsThisCallOnly else { return false }
            try await markReconciled(id)
            return true
        }
    }

    private func markReconciled(_ id: String) async throws {
        let now = reconciliation.now()
        try await pool.withConnection { try await reconciliations.markReconciled(id, at: now, on: $0) }
    }
}
