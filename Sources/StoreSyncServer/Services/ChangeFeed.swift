import Foundation
import Logging
import Metrics
import NIOConcurrencyHelpers
import PostgresLibPQ
import ServiceLifecycle
import StoreSyncCore

/// Applies the database's change notifications to this instance's caches, so several server
/// instances stay correct. While the listener is not connected, nothing may be served from a
/// cache: a change made meanwhile by another instance would go unnoticed.
///
/// Without a connection that can `LISTEN` (only a transaction pooler such as PgBouncer is
/// known), the feed polls instead (``init(polling:every:logger:)``, `ChangeFeed+Polling.swift`).
final class ChangeFeed: Service, Sendable {
    static let accountsChannel = "storesync_accounts"
    static let sessionsChannel = "storesync_sessions"
    static let catalogChannel = "storesync_catalog"
    static let webhooksChannel = "storesync_webhooks"

    /// How changes reach this instance.
    enum Source: Sendable {
        /// Notifications, on a connection of the listener's own.
        case listening(PostgresListener)
        /// A poll every `interval` on the pool: cached entries are checked against the database.
        case polling(ConnectionPool, interval: Duration)
    }

    let source: Source
    private let live = NIOLockedValueBox(false)
    /// When the last poll that succeeded started; a polling feed is live only while it is recent.
    private let lastPoll = NIOLockedValueBox<ContinuousClock.Instant?>(nil)
    /// Whether migrations have run: before that the catalog table may not exist yet, and the
    /// start-up catalog load that follows the migrations reads whatever changed meanwhile.
    private let schemaReady = NIOLockedValueBox(false)
    let logger: Logger
    /// Set once the caches exist (they need this feed to know whether they may serve).
    private let subscribers = NIOLockedValueBox<Subscribers?>(nil)

    struct Subscribers: Sendable {
        let snapshots: SnapshotService
        let sessions: SessionCache
        let catalog: CatalogService
        /// Woken when a webhook delivery is queued or retried; `nil` without a webhook.
        var webhooks: WebhookDeliveryService? = nil
    }

    /// A feed that listens for notifications on `database`, a direct connection.
    init(database: PostgresConfiguration, logger: Logger) throws {
        source = .listening(
            try PostgresListener(
                configuration: database,
                channels: [Self.accountsChannel, Self.sessionsChannel, Self.catalogChannel, Self.webhooksChannel],
                logger: logger))
        self.logger = logger
    }

    /// A feed that polls the database through `pool` every `interval`.
    init(polling pool: ConnectionPool, every interval: Duration, logger: Logger) {
        source = .polling(pool, interval: interval)
        self.logger = logger
    }

    /// The listener to run as a service beside the feed; `nil` for a polling feed.
    var listener: PostgresListener? {
        guard case .listening(let listener) = source else { return nil }
        return listener
    }

    /// Whether changes are arriving: the only time caches may answer. A polling feed is live
    /// while its last successful poll started less than ``trustWindow`` ago.
    var isLive: Bool {
        guard live.withLockedValue({ $0 }) else { return false }
        guard let window = trustWindow else { return true }
        return lastPoll.withLockedValue { $0 }.map { ContinuousClock.now - $0 < window } ?? false
    }

    /// How long a polling feed trusts what a poll confirmed: three polling intervals, so one
    /// slow poll does not empty the caches. `nil` for a listening feed, which is told of changes.
    var trustWindow: Duration? {
        guard case .polling(_, let interval) = source else { return nil }
        return interval * 3
    }

    /// Whether a cached answer whose data is complete up to `freshAsOf` may still be served: a
    /// listening feed evicts changed entries as it hears of them; a polling feed trusts an
    /// entry for ``trustWindow`` after its read or the poll that last confirmed it.
    func trusts(freshAsOf: ContinuousClock.Instant) -> Bool {
        guard let window = trustWindow else { return true }
        return ContinuousClock.now - freshAsOf < window
    }

    /// Called once migrations have run; from then on, a reconnect or a catalog notification
    /// reloads the catalog.
    func markSchemaReady() {
        schemaReady.withLockedValue { $0 = true }
    }

    func attach(_ subscribers: Subscribers) {
        self.subscribers.withLockedValue { $0 = subscribers }
    }

    func run() async throws {
        switch source {
        case .listening(let listener): await relay(listener)
        case .polling(let pool, let interval): await pollForChanges(pool, every: interval)
        }
    }

    private func relay(_ listener: PostgresListener) async {
        // Catalog reloads run beside the loop, retried until one succeeds: a reload waiting
        // for a connection must neither hold back the account and session evictions behind
        // it nor, failing, leave this instance on the old catalog until the next change.
        let (reloads, requestReload) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1))
        await withDiscardingTaskGroup { group in
            group.addTask { await self.reloadCatalogWhenAsked(reloads) }
            await relayEvents(listener, requestReload: requestReload)
            requestReload.finish()
            group.cancelAll()
        }
    }

    private func relayEvents(_ listener: PostgresListener, requestReload: AsyncStream<String>.Continuation) async {
        // Graceful shutdown stops services in reverse order: this loop must end first, on its
        // own, or the listener it waits for would never be asked to stop.
        for await event in listener.events.cancelOnGracefulShutdown() {
            guard let subscribers = subscribers.withLockedValue({ $0 }) else { continue }
            switch event {
            case .listening:
                // Whatever happened while nobody listened is unknown: start from nothing.
                subscribers.snapshots.invalidateAll()
                subscribers.sessions.invalidateAll()
                if !(await reloadCatalog(subscribers.catalog, reason: "reconnect")) { requestReload.yield("reconnect") }
                subscribers.webhooks?.wake()
                setLive(true)
                logger.debug("change feed live")
            case .disconnected:
                setLive(false)
                subscribers.snapshots.invalidateAll()
                subscribers.sessions.invalidateAll()
            case .notification(Self.accountsChannel, let payload):
                let parts = payload.split(separator: ":")
                if parts.count == 2, let account = UUID(uuidString: String(parts[0])), let version = Int64(parts[1]) {
                    subscribers.snapshots.invalidate(account, newVersion: version)
                }
            case .notification(Self.sessionsChannel, let payload):
                if let hash = Data(hexString: payload) { subscribers.sessions.invalidate(tokenHash: hash) }
            case .notification(Self.catalogChannel, _):
                requestReload.yield("change")
            case .notification(Self.webhooksChannel, _):
                subscribers.webhooks?.wake()
            case .notification:
                continue
            }
        }
    }

    /// Reloads the catalog for each request, one at a time, retrying a failed reload after
    /// 1 s, then 2, 4 … up to 30 s, until it succeeds; requests made meanwhile are served by
    /// one more reload after it.
    private func reloadCatalogWhenAsked(_ requests: AsyncStream<String>) async {
        for await reason in requests {
            guard let catalog = attached?.catalog else { continue }
            var wait = Duration.seconds(1)
            while !(await reloadCatalog(catalog, reason: reason)) {
                do {
                    try await Task.sleep(for: wait)
                } catch {
                    return
                }
                wait = min(wait * 2, .seconds(30))
            }
        }
    }

    /// The caches, once attached.
    var attached: Subscribers? { subscribers.withLockedValue { $0 } }

    /// Records whether changes are arriving; a polling feed passes when its poll started.
    func setLive(_ isLive: Bool, pollStartedAt: ContinuousClock.Instant? = nil) {
        live.withLockedValue { $0 = isLive }
        // While it is 0 the caches answer nothing and every lookup reads the database, which the
        // cache's hit ratio alone does not show.
        Gauge(label: "storesync_change_feed_live").record(isLive ? 1 : 0)
        if let pollStartedAt { lastPoll.withLockedValue { $0 = pollStartedAt } }
    }

    /// Whether migrations have run (see ``markSchemaReady()``).
    var isSchemaReady: Bool { schemaReady.withLockedValue { $0 } }

    /// Reloads the catalog once migrations have run; whether it did (or had nothing to do).
    @discardableResult
    func reloadCatalog(_ catalog: CatalogService, reason: String) async -> Bool {
        guard schemaReady.withLockedValue({ $0 }) else { return true }
        do {
            try await catalog.reload()
            return true
        } catch {
            logger.warning("catalog reload failed", metadata: ["storesync.reason": "\(reason)", "error": "\(error)"])
            return false
        }
    }
}
