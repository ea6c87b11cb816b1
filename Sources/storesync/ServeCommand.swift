import ArgumentParser
import Hummingbird
import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import UnixSignals
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
            var group = ServiceGroupConfiguration(
                services: [.init(service: app), .init(service: ShutdownNotice(logger: app.logger, deadline: Self.drainDeadline))],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: app.logger)
            // A request that never ends (a body trickling in) must not hold the stop until the
            // orchestrator kills the process: past this, what still runs is cancelled (nothing
            // answered 2xx is lost; an unanswered commit is retried by the client).
            group.maximumGracefulShutdownDuration = Self.drainDeadline
            try await ServiceGroup(configuration: group).run()
            app.logger.notice("stopped")
        }
    }

    /// How long a SIGTERM or SIGINT waits for requests in flight: under docker compose's
    /// `stop_grace_period` (30 s), so the stop is never a SIGKILL.
    static let drainDeadline: Duration = .seconds(25)
}
