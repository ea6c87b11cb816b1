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

    func run() async throws {
        let settings = try ServerConfiguration.fromEnvironment()
        let logger = ProcessLogging.makeLogger(level: settings.logLevel)
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))

        do {
            try settings.checkReferencedFiles()
        } catch let failure as ConfigurationError {
            throw StartupFailure.exit(failure.description)
        }
        let database = try await DatabaseRuntime.start(for: settings, logger: logger)
        do {
            let app = try await buildApplication(
                configuration: settings, database: database.configuration, metrics: registry, logger: logger)
            try await app.runService()
        } catch {
            await database.stop(logger: logger)
            if let failure = error as? ConfigurationError { throw StartupFailure.exit(failure.description) }
            throw error
        }
        await database.stop(logger: logger)
    }
}
