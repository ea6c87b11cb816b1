public import Foundation
import Logging
public import PostgresLibPQ
import ServiceLifecycle
public import StoreSyncCore
public import StoreSyncServer

/// A live StoreSync server for tests, on 127.0.0.1 with a port of its own, serving a
/// ``TestSetup``: for what needs a real socket (the client library, scenarios, faults, metrics
/// over HTTP). Everything else tests the application through its router, with ``TestApp``.
///
/// ```swift
/// let server = try await TestServer.start()
/// defer { Task { await server.stop() } }
/// ```
public final class TestServer: TestStoreSync {
    public let baseURL: URL
    public let port: Int
    public let setup: TestSetup
    public let database: ConnectionPool

    private let serviceGroup: ServiceGroup
    private let running: Task<Void, any Error>

    private init(port: Int, setup: TestSetup, database: ConnectionPool, serviceGroup: ServiceGroup, running: Task<Void, any Error>) {
        self.port = port
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        self.setup = setup
        self.database = database
        self.serviceGroup = serviceGroup
        self.running = running
    }

    /// Starts a server and waits until it listens.
    ///
    /// - Parameters:
    ///   - catalog: The products loaded at start.
    ///   - clock: The clock the server reads.
    ///   - database: A database to serve (the server migrates it), such as one in a
    ///     ``PostgresLibPQTesting/TestCluster/dedicated(named:options:)`` cluster; nil for a
    ///     fresh one in the shared cluster.
    ///   - configure: Changes to the test configuration (transfer policy, limits, …).
    /// - Returns: The running server.
    /// - Throws: When the database or the server cannot start.
    public static func start(
        catalog: [CatalogProduct] = TestCatalog.products,
        clock: TestClock = TestClock(),
        database: PostgresConfiguration? = nil,
        configure: @Sendable (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        try await launch(try await TestSetup.make(catalog: catalog, clock: clock, database: database, configure: configure))
    }

    /// Starts a second instance of a running server: the same database, trusted roots, keys
    /// and clock, its own port and caches — two instances behind one load balancer.
    ///
    /// - Parameters:
    ///   - first: The running server to share with.
    ///   - configure: Changes to the first instance's configuration (an instance configured
    ///     differently, such as one trusting other roots).
    /// - Returns: The second instance; stop it before `first`.
    public static func secondInstance(
        of first: TestServer, configure: @Sendable (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        try await launch(first.setup.secondInstance(configure: configure))
    }

    private static func launch(_ setup: TestSetup) async throws -> TestServer {
        var logger = Logger(label: "storesync.test-server")
        logger.logLevel = setup.configuration.logLevel
        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = try await setup.buildApplication(logger: logger, onServerRunning: { port in portContinuation.yield(port) })
        let serviceGroup = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let running = Task {
            defer { portContinuation.finish() }
            try await serviceGroup.run()
        }
        var ports = portStream.makeAsyncIterator()
        guard let port = await ports.next() else {
            try await running.value
            throw TestServerError.didNotStart
        }
        let database = ConnectionPool(configuration: setup.database, size: 2, logger: logger)
        return TestServer(port: port, setup: setup, database: database, serviceGroup: serviceGroup, running: running)
    }

    /// Stops the server gracefully (in-flight requests finish) and frees its database pool.
    public func stop() async {
        await serviceGroup.triggerGracefulShutdown()
        _ = try? await running.value
        await database.shutdown()
        setup.removeFiles()
    }
}

/// Why a test server or app did not come up.
public enum TestServerError: Error, CustomStringConvertible {
    case didNotStart
    case unexpected(String)

    public var description: String {
        switch self {
        case .didNotStart: "the test server did not start"
        case .unexpected(let text): text
        }
    }
}
