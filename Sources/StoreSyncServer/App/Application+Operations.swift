import Foundation
import Hummingbird
import Logging
import PostgresLibPQ
import Prometheus

extension StoreSyncApplication {
    /// Adds what runs beside the API: the webhook's delivery loop (with `STORESYNC_WEBHOOK_URL`)
    /// and `/metrics` on its own listener (with `METRICS_PORT`).
    mutating func addOperationsServices(
        dependencies: AppDependencies, configuration: ServerConfiguration, metrics: PrometheusCollectorRegistry,
        logger: Logger
    ) {
        if let webhookService = dependencies.webhookService { addServices(webhookService) }
        if let port = configuration.metricsPort {
            addServices(MetricsPage.server(registry: metrics, host: configuration.metricsHost, port: port, logger: logger))
        }
    }
}

extension AppDependencies {
    /// The delivery loop of a configured webhook; `nil` without one.
    static func webhookService(
        _ configuration: ServerConfiguration, pool: ConnectionPool, now: @escaping @Sendable () -> Date, logger: Logger
    ) -> WebhookDeliveryService? {
        guard let url = configuration.webhookURL, let secret = configuration.webhookSecret else { return nil }
        return WebhookDeliveryService(
            url: url, secret: secret, policy: configuration.webhookDelivery, pool: pool, now: now, logger: logger)
    }
}
