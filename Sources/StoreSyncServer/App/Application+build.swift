import AppStoreVerification
import AsyncHTTPClient
public import Configuration
public import Foundation
public import Hummingbird
public import Logging
public import PostgresLibPQ
public import Prometheus
import StoreSyncCore

/// The application both builders return: StoreSync's router behind Hummingbird's HTTP/1 server.
public typealias StoreSyncApplication = Application<RouterResponder<StoreSyncRequestContext>>

/// Builds StoreSync from its configuration, as `storesync serve` runs it: the settings, the
/// database they name, and the application on that database.
///
/// Every setting is read and every file it names is checked before anything starts, so a bad
/// one leaves nothing behind. Without `DATABASE_URL` the embedded cluster under
/// `STORESYNC_DATA_DIR` is started here, because every service connects to it; the application
/// stops it after all of them.
///
/// - Parameters:
///   - reader: The configuration, by the keys ``Setting`` lists (`http.port`, …).
///   - metrics: The registry `/metrics` renders (the executable bootstraps swift-metrics with it).
/// - Returns: The application, ready to run.
/// - Throws: ``ConfigurationError`` naming the first missing or invalid setting,
///   ``EmbeddedDatabaseError`` when the embedded cluster does not start.
public func buildApplication(reader: ConfigReader, metrics: PrometheusCollectorRegistry) async throws -> StoreSyncApplication {
    let configuration = try ServerConfiguration(reader: reader)
    try configuration.checkReferencedFiles()
    var logger = Logger(label: "storesync")
    logger.logLevel = configuration.logLevel
    let database = try await ServerDatabase.start(for: configuration.database, logger: logger)
    do {
        var app = try await buildApplication(
            configuration: configuration, database: database.configuration, metrics: metrics, logger: logger)
        // Services stop in reverse order: the first one stops once nothing uses the database.
        app.services.insert(database, at: 0)
        return app
    } catch {
        await database.stop()
        throw error
    }
}

/// Builds the StoreSync application on a database that runs: the connection pool (a service),
/// migrations and the catalog before the server starts, and the router.
///
/// Tests call it to give the application their own database and clock.
///
/// - Parameters:
///   - configuration: The validated server configuration.
///   - database: Where PostgreSQL is.
///   - metrics: The registry `/metrics` renders.
///   - logger: The application's logger.
///   - now: The clock; tests move time.
///   - onServerRunning: Called with the bound port once the server listens (port 0 picks one).
/// - Returns: The application, ready to run.
/// - Throws: ``ConfigurationError`` for settings that only fail when used (trusted roots file,
///   signing key).
public func buildApplication(
    configuration: ServerConfiguration,
    database: PostgresConfiguration,
    metrics: PrometheusCollectorRegistry,
    logger: Logger,
    now: @escaping @Sendable () -> Date = Date.init,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> StoreSyncApplication {
    let logger = {
        var logger = logger
        logger.logLevel = configuration.logLevel
        return logger
    }()
    for warning in configuration.startupWarnings { logger.warning("\(warning)") }
    let topology = try configuration.database.topology(primary: database)
    let pool = ConnectionPool(
        configuration: topology.primary.withServerSessionSettings(configuration), size: configuration.databasePoolSize,
        checkoutTimeout: configuration.databasePoolCheckoutTimeout, logger: logger)
    let schema = try SchemaLocation.resolve(configured: configuration.schemaDirectory)
    let feed = try ChangeFeed(topology: topology, pool: pool, configuration: configuration, logger: logger)
    let standby = StandbyReads.services(topology: topology, primary: pool, configuration: configuration, logger: logger)
    let dependencies = try AppDependencies(
        configuration: configuration, pool: pool, feed: feed, standby: standby, logger: logger, now: now)
    let router = buildRouter(dependencies: dependencies, configuration: configuration, metrics: metrics)

    let host = configuration.httpHost
    // Idle connections (also one stopped halfway through a request) close after
    // HTTP_IDLE_TIMEOUT_SECONDS; at most HTTP_MAX_CONNECTIONS are open; `100 Continue` waits
    // for the route (ExpectContinueHandler).
    let connections = ConnectionLimit(maximum: configuration.httpMaxConnections)
    var app = Application(
        router: router,
        server: .http1(
            configuration: .init(
                additionalChannelHandlers: [connections.handler(), ExpectContinueHandler()],
                idleTimeout: .seconds(Int64(configuration.httpIdleTimeoutSeconds)))),
        configuration: .init(address: .hostname(host, port: configuration.httpPort), serverName: "StoreSync"),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? configuration.httpPort
            logger.notice("StoreSync is serving on http://\(host):\(port)")
            await onServerRunning(port)
        },
        eventLoopGroupProvider: .shared(HTTPEventLoops.group(threads: configuration.httpEventLoops)),
        logger: logger
    )
    // Services stop in reverse order: the pools after everything that uses them.
    app.addServices(pool, dependencies.healthPool)
    if let standby { app.addServices(standby.pool) }
    if let listener = feed.listener { app.addServices(listener) }
    app.addServices(feed)
    if let standby { app.addServices(standby.monitor) }
    app.addServices(PoolMetricsService(pool: pool, name: "primary"), PoolMetricsService(pool: dependencies.healthPool, name: "health"))
    if let standby { app.addServices(PoolMetricsService(pool: standby.pool, name: "standby"), StandbyMetricsService(monitor: standby.monitor)) }
    let started = StartupGate()
    app.services += dependencies.appStore.backgroundServices(after: started)
    app.addServices(
        SchemaWatch(
            migrator: SchemaMigrator(directory: schema.directory, logger: logger), pool: pool,
            interval: configuration.schemaWatchInterval, gate: started, logger: logger))
    dependencies.appStore.announce()
    app.addOperationsServices(dependencies: dependencies, configuration: configuration, metrics: metrics, logger: logger)
    app.beforeServerStarts {
        if configuration.migrateOnStart {
            let applied = try await topology.migrate(schema: schema.directory, primary: pool, logger: logger)
            if !applied.isEmpty { logger.info("migrations applied", metadata: ["db.migrations": "\(applied)"]) }
        } else {
            let missing = try await SchemaMigrator(directory: schema.directory, logger: logger).unapplied(pool)
            guard missing.isEmpty else {
                throw ConfigurationError(
                    setting: .migrateOnStart,
                    problem: "is false and the database lacks \(missing.joined(separator: ", ")): run storesync migrate first")
            }
        }
        feed.markSchemaReady()
        dependencies.webhookService?.markSchemaReady()
        if let path = configuration.catalogPath {
            try await dependencies.catalog.loadFile(at: path)
        } else {
            try await dependencies.catalog.reload()
        }
        started.open()
    }
    return app
}

/// The services the controllers use, wired from configuration.
struct AppDependencies: Sendable {
    let pool: ConnectionPool
    /// One connection of its own for `/health/ready`, so a saturated request pool does not
    /// make a healthy database look down.
    let healthPool: ConnectionPool
    let accounts: AccountService
    let catalog: CatalogService
    let snapshots: SnapshotService
    let sync: PurchaseSyncService
    let lookups: LookupService
    let notifications: NotificationService
    let appStore: AppStoreServices
    /// Appends events and, with a webhook, queues their deliveries.
    let events: EventRepository
    let webhookDeliveries: WebhookDeliveries
    /// Sends webhook deliveries; `nil` without `STORESYNC_WEBHOOK_URL`.
    let webhookService: WebhookDeliveryService?

    init(
        configuration: ServerConfiguration, pool: ConnectionPool, feed: ChangeFeed?,
        standby: (pool: ConnectionPool, monitor: StandbyMonitor, maxLag: Duration)? = nil, logger: Logger,
        now: @escaping @Sendable () -> Date
    ) throws {
        let verifier = SignedDataVerifier(configuration: try Self.verifierConfiguration(configuration), logger: logger)
        let receipts = ReceiptVerifierConfiguration(
            bundleId: configuration.bundleId, productionURL: configuration.verifyReceiptURL,
            sandboxURL: configuration.verifyReceiptSandboxURL, sharedSecret: configuration.sharedSecret,
            timeout: configuration.verifyReceiptRequestTimeout, totalTimeout: configuration.verifyReceiptTotalTimeout)
        let signer: SnapshotSigner
        do {
            signer = try SnapshotSigner(rawKey: configuration.signingKey, logger: logger)
        } catch {
            throw ConfigurationError.invalid(.signingKey, "not a raw Ed25519 private key")
        }
        self.pool = pool
        healthPool = ConnectionPool(configuration: pool.configuration, size: 1, checkoutTimeout: .seconds(5), logger: logger)
        events = EventRepository(queuesWebhookDeliveries: configuration.webhookURL != nil)
        webhookDeliveries = WebhookDeliveries(pool: pool, now: now)
        webhookService = Self.webhookService(configuration, pool: pool, now: now, logger: logger)
        snapshots = SnapshotService(
            signer: signer, offlineGraceSeconds: configuration.offlineGraceSeconds, feed: feed,
            capacity: configuration.snapshotCacheEntries, byteBudget: configuration.snapshotCacheBytes)
        catalog = CatalogService(pool: pool, logger: logger)
        let sessionCache = SessionCache(feed: feed)
        accounts = AccountService(
            pool: pool, hasher: PasswordHasher(cost: configuration.passwordHashCost, capacity: configuration.passwordChecks),
            throttle: LoginThrottle(pool: pool, limits: configuration.loginLimits), sessionCache: sessionCache,
            snapshots: snapshots,
            sessionIdle: TimeInterval(configuration.sessionIdleSeconds), events: events, now: now, logger: logger)
        feed?.attach(ChangeFeed.Subscribers(
            snapshots: snapshots, sessions: sessionCache, catalog: catalog, webhooks: webhookService))
        let environments = EnvironmentRule(
            server: configuration.environment, sandboxInProduction: configuration.sandboxInProduction)
        let verification = VerificationService(
            verifier: verifier, receipts: receipts, httpClient: .shared, catalog: catalog, environments: environments,
            logger: logger)
        sync = PurchaseSyncService(
            pool: pool, verification: verification, catalog: catalog, snapshots: snapshots,
            rules: OwnershipRules(
                policy: configuration.transferPolicy,
                transferCooldown: TimeInterval(configuration.transferCooldownSeconds)),
            events: events,
            maxRestoreEntries: configuration.maxRestoreEntries,
            now: now, logger: logger)
        lookups = LookupService(
            pool: pool, catalog: catalog, snapshots: snapshots, events: events,
            concurrentLoads: LookupService.concurrentLoads(poolSize: configuration.databasePoolSize), standby: standby,
            now: now)
        notifications = NotificationService(
            pool: pool, verifier: verifier, environments: environments, snapshots: snapshots, events: events,
            now: now, logger: logger)
        appStore = try AppStoreServices(
            configuration: configuration, verifier: verifier, pool: pool, catalog: catalog, snapshots: snapshots,
            notifications: notifications, logger: logger, now: now)
    }

    static func verifierConfiguration(_ configuration: ServerConfiguration) throws -> VerifierConfiguration {
        let roots = try configuration.trustedRootsPath.map { path in
            do {
                return try VerifierConfiguration.loadTrustedRoots(pemFile: path)
            } catch {
                throw ConfigurationError.invalid(.trustedRoots, "\(path): \(error)")
            }
        }
        do {
            return try VerifierConfiguration(
                bundleId: configuration.bundleId, appAppleId: configuration.appAppleId,
                environment: configuration.environment, trustedRoots: roots ?? [VerifierConfiguration.appleRootCAG3],
                allowUnverified: configuration.allowUnverified,
                // Verified always, so that a refusal (EnvironmentRule) names the setting.
                acceptsSandbox: configuration.environment == .production)
        } catch {
            throw ConfigurationError.invalid(.environment, "\(error)")
        }
    }
}
