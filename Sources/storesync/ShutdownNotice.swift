import Logging
import ServiceLifecycle

/// Says in the log when the server starts to shut down: listed after the application, it is
/// the first service told to stop, before the server drains its requests.
struct ShutdownNotice: Service {
    let logger: Logger
    let deadline: Duration

    func run() async throws {
        try? await gracefulShutdown()
        logger.notice("shutting down: finishing the requests in flight, then stopping (at most \(deadline))")
    }
}
