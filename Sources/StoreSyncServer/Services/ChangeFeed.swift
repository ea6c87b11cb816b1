import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresLibPQ
import ServiceLifecycle
import StoreSyncCore

/// Applies the database's change notifications to this instance's caches, so several server
/// instances stay correct. While the listener is not connected, nothing may be served from a
/// cache: a change made meanwhile by another instance would go unnoticed.
final class ChangeFeed: Service, Sendable {
    static let accountsChannel = "storesync_accounts"
    static let sessionsChannel = "storesync_sessions"
    static let catalogChannel = "storesync_catalog"
    static let webhooksChannel = "storesync_webhooks"

    let listener: PostgresListener
    private let live = NIOLockedValueBox(false)
    /// Whether migrations have run: before that the catalog table may not exist yet, and the
    /// start-up catalog load that follows the migrations reads whatever changed meanwhile.
    private let schemaReady = NIOLockedValueBox(false)
    private let logger: Logger
    /// Set once the caches exist (they need this feed to know whether they may serve).
    private let subscribers = NIOLockedValueBox<Subscribers?>(nil)

    struct Subscribers: Sendable {
        let snapshots: SnapshotService
        let sessions: SessionCache
        let catalog: CatalogService
        /// Woken when a webhook delivery is queued or retried; `nil` without a webhook.
        var webhooks: WebhookDeliveryService? = nil
    }

    init(database: PostgresConfiguration, logger: Logger) throws {
        listener = try PostgresListener(
            configuration: database, channels: [Self.accountsChannel, Self.sessionsChannel, Self.catalogChannel, Self.webhooksChannel],
            logger: logger)
        self.logger = logger
    }

    /// Whether notifications are flowing: the only time caches may answer.
    var isLive: Bool { live.withLockedValue { $0 } }

    /// Called once migrations have run; from then on, a reconnect or a catalog notification
    /// reloads the catalog.
    func markSchemaReady() {
        schemaReady.withLockedValue { $0 = true }
    }

    func attach(_ subscribers: Subscribers) {
        self.subscribers.withLockedValue { $0 = subscribers }
    }

    func run() async throws {
        // Graceful shutdown stops services in reverse order: this loop must end first, on its
        // own, or the listener it waits for would never be asked to stop.
        for await event in listener.events.cancelOnGracefulShutdown() {
            guard let subscribers = subscribers.withLockedValue({ $0 }) else { continue }
            switch event {
            case .listening:
                // Whatever happened while nobody listened is unknown: start from nothing.
                subscribers.snapshots.invalidateAll()
                subscribers.sessions.invalidateAll()
                await reloadCatalog(subscribers.catalog, reason: "reconnect")
                subscribers.webhooks?.wake()
                live.withLockedValue { $0 = true }
                logger.debug("change feed live")
            case .disconnected:
                live.withLockedValue { $0 = false }
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
                await reloadCatalog(subscribers.catalog, reason: "change")
            case .notification(Self.webhooksChannel, _):
                subscribers.webhooks?.wake()
            case .notification:
                continue
            }
        }
    }

    private func reloadCatalog(_ catalog: CatalogService, reason: String) async {
        guard schemaReady.withLockedValue({ $0 }) else { return }
        do {
            try await catalog.reload()
        } catch {
            logger.warning("catalog reload failed", metadata: ["storesync.reason": "\(reason)", "error": "\(error)"])
        }
    }
}
