public import Hummingbird
import Logging

/// Runs a Hummingbird router on 127.0.0.1 and a free port (or a given one) for the duration of
/// a test body: what the stand-ins of Apple's endpoints and the webhook receiver are served with.
public enum LoopbackHTTPServer {
    /// Serves `router` until `body` returns or throws, then stops it.
    ///
    /// - Parameters:
    ///   - router: The routes to serve.
    ///   - label: The server's logger label (it logs critical errors only).
    ///   - port: The port to listen on; 0 picks a free one.
    ///   - body: The test, given the port the server listens on.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or ``LoopbackHTTPServerError`` when the server cannot start.
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
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                defer { portContinuation.finish() }
                try await app.run()
            }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next(), port > 0 else {
                group.cancelAll()
                throw LoopbackHTTPServerError.noPort
            }
            do {
                let result = try await body(port)
                group.cancelAll()
                return result
            } catch {
                group.cancelAll()
                throw error
            }
        }
    }
}

/// Why a loopback server did not start.
public enum LoopbackHTTPServerError: Error {
    /// The server stopped before it listened.
    case noPort
}
