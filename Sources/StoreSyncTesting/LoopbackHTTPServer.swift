public import Hummingbird
import Logging
import ServiceLifecycle

/// Runs a Hummingbird router on 127.0.0.1 and a free port (or a given one) for the duration of
/// a test body: what the stand-ins of Apple's endpoints and the webhook receiver are served with.
public enum LoopbackHTTPServer {
    /// How long a stop waits for the server's connections to close before it gives up with
    /// ``LoopbackHTTPServerError/didNotStop``: a handler that never answers fails its test
    /// rather than hanging the suite.
    static let stopLimit: Duration = .seconds(60)

    /// Serves `router` until `body` returns or throws, then stops it gracefully.
    ///
    /// The server is stopped by a graceful shutdown, never by cancelling it: a connection the
    /// server accepted but had not yet handed to a handler when its task was cancelled traps
    /// in SwiftNIO ("Deinited NIOAsyncWriter without calling finish()"), and the code under
    /// test (a retry, a webhook delivery) may well connect just as the test ends. Handlers
    /// that wait on purpose stop waiting once the shutdown begins
    /// (`cancelWhenGracefulShutdown`), so the stop stays prompt.
    ///
    /// - Parameters:
    ///   - router: The routes to serve.
    ///   - label: The server's logger label (it logs critical errors only).
    ///   - port: The port to listen on; 0 picks a free one.
    ///   - body: The test, given the port the server listens on.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``LoopbackHTTPServerError`` when the server cannot start
    ///   or does not stop.
    public static func run<Result: Sendable>(
        router: Router<BasicRequestContext>, label: String, port: Int = 0, _ body: @Sendable (Int) async throws -> Result
    ) async throws -> Result {
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: label)
        // Stopping the server at the end of a test while a client still holds a keep-alive
        // connection logs an error per connection: noise, since a test asserts on answers.
        logger.logLevel = .critical
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: logger)
        let services = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { portContinuation.finish() }
                try await services.run()
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else {
                // It never listened, so no connection can be caught half accepted.
                group.cancelAll()
                throw LoopbackHTTPServerError.noPort
            }
            let outcome: Swift.Result<Result, any Error>
            do {
                outcome = .success(try await body(port))
            } catch {
                outcome = .failure(error)
            }
            let stopped = await stop(services, running: &group)
            // The test's own failure says more than the stop's.
            let result = try outcome.get()
            try stopped.get()
            return result
        }
    }

    /// Shuts the server down gracefully and waits, up to `stopLimit`, for it to end.
    private static func stop(
        _ services: ServiceGroup, running group: inout ThrowingTaskGroup<Void, any Error>
    ) async -> Swift.Result<Void, any Error> {
        await services.triggerGracefulShutdown()
        group.addTask {
            try await Task.sleep(for: stopLimit)
            throw LoopbackHTTPServerError.didNotStop
        }
        defer { group.cancelAll() }
        do {
            try await group.next()
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}

/// Why a loopback server did not start or stop.
public enum LoopbackHTTPServerError: Error {
    /// The server stopped before it listened.
    case noPort
    /// The server's connections were still open a minute after its graceful shutdown began:
    /// a handler that never answered.
    case didNotStop
}
