import AppStoreVerification
import Foundation
import Logging
import PostgresLibPQ
import ServiceLifecycle
import StoreSyncCore

/// Everything that asks Apple's App Store Server API, wired from configuration: the routes'
/// services and the background work (notification recovery as the server starts, the
/// reconciliation job).
struct AppStoreServices: Sendable {
    let clients: AppStoreAPIClients
    let reconciliation: ReconciliationService
    let recovery: NotificationRecoveryService
    let orders: OrderLookupService
    let testNotifications: TestNotificationService
    private let configuration: ServerConfiguration
    private let pool: ConnectionPool
    private let logger: Logger

    /// Wires the services.
    ///
    /// - Parameters:
    ///   - configuration: The server's settings.
    ///   - verifier: The verifier of uploads; each API environment gets one configured alike
    ///     that takes that environment's data only, as Apple's API of an environment returns.
    ///   - pool: The database.
    ///   - catalog: The catalog, for the order lookup's entitlements.
    ///   - snapshots: The snapshot cache, invalidated for accounts a refresh changes.
    ///   - notifications: The notification path recovered notifications take.
    ///   - logger: The application's logger.
    ///   - now: The server's clock.
    /// - Throws: ``ConfigurationError`` for API settings that do not hold together.
    init(
        configuration: ServerConfiguration, verifier: SignedDataVerifier, pool: ConnectionPool, catalog: CatalogService,
        snapshots: SnapshotService, notifications: NotificationService, logger: Logger, now: @escaping @Sendable () -> Date
    ) throws {
        let configurations = try configuration.appStoreAPIConfigurations()
        var verifiers: [AppStoreEnvironment: SignedDataVerifier] = [:]
        for environment in configurations.map(\.environment) {
            let strict = try verifier.configuration.accepting(only: environment)
            verifiers[environment] = SignedDataVerifier(configuration: strict, logger: logger)
        }
        clients = AppStoreAPIClients(configurations: configurations, verifiers: verifiers, logger: logger, now: now)
        reconciliation = ReconciliationService(
            pool: pool, apple: clients, snapshots: snapshots, logger: logger, now: now,
            writer: AppleVersionsWriter(events: notifications.events, verifier: notifications.verifier, logger: logger))
        recovery = NotificationRecoveryService(
            pool: pool, apple: clients, notifications: notifications, logger: logger, now: now)
        orders = OrderLookupService(pool: pool, apple: clients, catalog: catalog, now: now)
        testNotifications = TestNotificationService(
            pool: pool, apple: clients, wait: configuration.testNotificationWait, logger: logger)
        self.configuration = configuration
        self.pool = pool
        self.logger = logger
    }

    /// The background work, each waiting for `gate` before it reads the database.
    ///
    /// - Parameter gate: Opens once migrations have run.
    /// - Returns: The services to add to the application.
    func backgroundServices(after gate: StartupGate) -> [any Service] {
        [
            NotificationRecoveryOnStart(recovery: recovery, gate: gate, firstRetry: configuration.recoveryRetryDelay),
            ReconciliationJob(
                pool: pool, reconciliation: reconciliation, gate: gate, perMinute: configuration.reconcilePerMinute,
                idleInterval: configuration.reconcileIdleInterval, logger: logger),
        ]
    }

    /// Says once, at start, whether the API is on and what is off without it.
    func announce() {
        guard !clients.clients.isEmpty else {
            let names = AppStoreAPIKeySettings.settings.map(\.environmentName).joined(separator: ", ")
            logger.notice(
                "App Store Server API not configured (set \(names)): purchase refresh, notification recovery, order lookup and test notifications answer 503, and nothing is reconciled in the background")
            return
        }
        let environments = clients.clients.map(\.configuration.environment.appleName).joined(separator: " and ")
        logger.info(
            "App Store Server API configured for \(environments)",
            metadata: ["storesync.reconcile_per_minute": "\(configuration.reconcilePerMinute)"])
    }
}
