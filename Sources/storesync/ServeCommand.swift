import ArgumentParser
import Hummingbird
import Logging
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
        HeapMemory.limitArenas()
        let reader = try options.reader()
        ProcessLogging.bootstrap(format: try await StartupFailure.reporting { try ServerConfiguration.logFormat(reader: reader) })
        // Before the server starts its event loops, connection threads and the embedded
        // PostgreSQL: each later thread inherits the class of the one that starts it.
        try await StartupFailure.reporting { try ServerConfiguration.threadScheduling(reader: reader) }
            .apply(logger: Logger(label: "storesync.serve"))
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory.storeSync(registry: registry))
        try await StartupFailure.reporting {
            let app = try await buildApplication(reader: reader, metrics: registry)
            try await app.runService()
        }
    }
}
