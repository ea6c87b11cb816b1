import ArgumentParser
import Hummingbird
import Metrics
import Prometheus
import StoreSyncServer

/// Serves the HTTP API until SIGINT or SIGTERM, then drains requests and stops the
/// embedded database if it started one.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the StoreSync HTTP API.",
        discussion: ServerConfiguration.settingsHelp
    )

    @OptionGroup var options: ConfigurationOptions

    func run() async throws {
        let reader = try options.reader()
        ProcessLogging.bootstrap(format: try await StartupFailure.reporting { try ServerConfiguration.logFormat(reader: reader) })
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        try await StartupFailure.reporting {
            let app = try await buildApplication(reader: reader, metrics: registry)
            try await app.runService()
        }
    }
}
