import Foundation
import Hummingbird
import Prometheus

/// Builds the router: every route of DESIGN §4, errors as problem details, metrics by route.
func buildRouter(
    dependencies: AppDependencies, configuration: ServerConfiguration, metrics: PrometheusCollectorRegistry
) -> Router<StoreSyncRequestContext> {
    let router = Router(context: StoreSyncRequestContext.self)
    router.add(middleware: RouteMetricsMiddleware())
    router.add(middleware: RequestIdMiddleware(trustedProxies: configuration.trustedProxies))
    router.add(middleware: HeapTrimMiddleware(trimmer: HeapTrimmer()))
    router.add(middleware: ServerTimingMiddleware())
    router.add(middleware: ProblemMiddleware())
    router.add(middleware: ExpectContinueMiddleware())
    let limit = configuration.maxBodyBytes

    HealthController(pool: dependencies.healthPool).addRoutes(to: router)
    let metricsOnAPIPort = configuration.metricsPort == nil ? metrics : nil
    ServiceInfoController(snapshots: dependencies.snapshots, metrics: metricsOnAPIPort, openAPIDocument: OpenAPIDocument.data)
        .addRoutes(to: router)

    let v1 = router.group("v1")
    // Routes that need no credentials get small bodies: anyone may send them.
    AccountController(
        accounts: dependencies.accounts, maxBodyBytes: min(limit, configuration.maxAnonymousBodyBytes),
        trustedProxies: configuration.trustedProxies
    ).addRoutes(to: v1)
    CatalogController(catalog: dependencies.catalog, maxBodyBytes: limit).addRoutes(to: v1)
    NotificationController(
        notifications: dependencies.notifications, maxBodyBytes: min(limit, NotificationController.largestNotification)
    ).addRoutes(to: v1)

    let device = v1.group()
        .add(middleware: DeviceAuthenticator(accounts: dependencies.accounts))
        .group(context: DeviceRequestContext.self)
    AccountController(accounts: dependencies.accounts, maxBodyBytes: limit, trustedProxies: configuration.trustedProxies)
        .addDeviceRoutes(to: device)
    SyncController(sync: dependencies.sync, maxBodyBytes: limit).addRoutes(to: device)
    EntitlementController(lookups: dependencies.lookups).addRoutes(to: device)

    let admin = v1.group("admin").add(middleware: AdminAuthenticator(apiKey: configuration.adminAPIKey))
    AdminController(lookups: dependencies.lookups).addRoutes(to: admin)
    ExternalUserController(accounts: dependencies.accounts, lookups: dependencies.lookups, maxBodyBytes: limit)
        .addRoutes(to: admin)
    CatalogController(catalog: dependencies.catalog, maxBodyBytes: limit).addAdminRoutes(to: admin)
    AppStoreAdminController(
        reconciliation: dependencies.appStore.reconciliation, recovery: dependencies.appStore.recovery,
        orders: dependencies.appStore.orders, testNotifications: dependencies.appStore.testNotifications
    ).addRoutes(to: admin)
    WebhookController(deliveries: dependencies.webhookDeliveries).addRoutes(to: admin)
    return router
}
