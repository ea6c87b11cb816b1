public import Logging
internal import NIOConcurrencyHelpers
internal import NIOCore
internal import NIOPosix
public import ServiceLifecycle

/// A bounded pool of PostgreSQL connections, and a `Service` that closes them on shutdown.
///
/// Connections are created lazily up to `size` and lent to one closure at a time with
/// ``withConnection(actorIsolation:_:)`` or ``withTransaction(isolation:actorIsolation:_:)``.
/// Callers beyond `size` queue in order and fail with ``PostgresError/Code/poolTimeout`` after
/// `checkoutTimeout`. A connection the server closed is noticed before its next statement and
/// replaced. libpq runs on the pool's own threads, one per connection.
public final class ConnectionPool: Service, Sendable {
    /// Where the connections go.
    public let configuration: PostgresConfiguration
    /// The most connections the pool opens.
    public let size: Int
    let checkoutTimeout: Duration
    let logger: Logger
    let threadPool: NIOThreadPool
    let state = NIOLockedValueBox(ConnectionPoolState())

    /// Creates a pool; no connection opens until one is needed.
    ///
    /// - Parameters:
    ///   - configuration: Where to connect.
    ///   - size: The most connections open at once (at least 1).
    ///   - checkoutTimeout: How long a caller waits for a free connection before failing.
    ///   - logger: Receives debug and trace messages.
    public init(configuration: PostgresConfiguration, size: Int = 4, checkoutTimeout: Duration = .seconds(10), logger: Logger) {
        self.configuration = configuration
        self.size = max(1, size)
        self.checkoutTimeout = checkoutTimeout
        self.logger = logger
        self.threadPool = NIOThreadPool(numberOfThreads: self.size)
        self.threadPool.start()
    }

    deinit {
        // A pool dropped without shutdown still must not leak its threads.
        if !state.withLockedValue(\.isShutDown) {
            threadPool.shutdownGracefully { _ in }
        }
    }

    /// Lends a connection to `body` and takes it back when `body` returns or throws.
    ///
    /// - Parameters:
    ///   - actorIsolation: The caller's actor, inherited so `body` runs where it was written.
    ///   - body: Work with the connection; it must not keep the connection.
    /// - Returns: What `body` returns.
    /// - Throws: ``PostgresError`` with ``PostgresError/Code/poolTimeout`` or
    ///   ``PostgresError/Code/poolShutDown``, `CancellationError`, or what `body` throws.
    @discardableResult
    public func withConnection<R: Sendable>(
        actorIsolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> R
    ) async throws -> R {
        let connection = try await lease()
        defer { giveBack(connection) }
        return try await body(connection)
    }

    /// The pool's current occupancy.
    public var statistics: PoolStatistics {
        state.withLockedValue { state in
            PoolStatistics(
                size: size, connections: state.all.count, inUse: state.inUse,
                idle: state.idle.count, waiting: state.waiters.count, checkoutTimeouts: state.checkoutTimeouts
            )
        }
    }

    /// Runs until graceful shutdown (or cancellation), then closes every connection.
    ///
    /// - Throws: Nothing in practice; the signature is the `Service` protocol's.
    public func run() async throws {
        try? await gracefulShutdown()
        await shutdown()
    }

    /// Refuses new callers, fails queued ones, waits for lent connections to return, closes all.
    ///
    /// Safe to call more than once. Use it when the pool does not run in a `ServiceGroup` (tests).
    public func shutdown() async {
        let waiters: [ConnectionPoolState.Waiter] = state.withLockedValue { state in
            state.isShutDown = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters)
        }
        for waiter in waiters {
            waiter.continuation.resume(throwing: PostgresError.client(.poolShutDown, "the connection pool has shut down"))
        }
        await withCheckedContinuation { (drained: CheckedContinuation<Void, Never>) in
            let isDrained = state.withLockedValue { state in
                if state.inUse == 0 { return true }
                state.drainWaiters.append(drained)
                return false
            }
            if isDrained { drained.resume() }
        }
        let connections = state.withLockedValue { state in
            defer { state.idle.removeAll() }
            return state.all
        }
        for connection in connections {
            try? await threadPool.runIfActive { connection.core.close() }
        }
        try? await threadPool.shutdownGracefully()
        logger.debug("connection pool shut down", metadata: ["db.connections": "\(connections.count)"])
    }
}
