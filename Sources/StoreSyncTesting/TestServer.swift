public import Foundation
public import Logging
public import PostgresLibPQ
import ServiceLifecycle
import StoreSyncServer

/// A live StoreSync server for tests, on 127.0.0.1 with a port of its own, serving a
/// ``TestSetup``: for what needs a real socket (the client library, scenarios, faults, metrics
/// over HTTP). Everything else tests the application through its router, with ``TestApp``.
///
/// ```swift
/// let server = try await TestServer.start()
/// defer { Task { await server.stop() } }
/// ```
public final class TestServer: TestStoreSync {
    /// `http://127.0.0.1:<port>`.
    public let baseURL: URL
    /// The port the server listens on.
    public let port: Int
    /// What the server serves.
    public let setup: TestSetup
    /// A pool of the test's own on the server's database.
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

    /// Starts a server serving `setup` and waits until it listens.
    ///
    /// - Parameter setup: What it serves.
    /// - Returns: The running server.
    /// - Throws: When the application cannot be built or does not start.
    public static func start(serving setup: TestSetup) async throws -> TestServer {
        try await start(serving: setup, logger: setup.logger(label: "storesync.test-server"))
    }

    /// Starts a server serving `setup` that logs to `logger` (its level is the configuration's),
    /// and waits until it listens: for tests of what the server writes to its log.
    ///
    /// - Parameters:
    ///   - setup: What it serves.
    ///   - logger: Where the application logs.
    /// - Returns: The running server.
    /// - Throws: When the application cannot be built or does not start.
    public static func start(serving setup: TestSetup, logger: Logger) async throws -> TestServer {
        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = try await setup.buildApplication(logger: logger, onServerRunning: { port in portContinuation.yield(port) })
        let serviceGroup = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        let running = Task {
            defer { portContinuation.finish() }
            try await serviceGroup.run()
        }
        let port = try await firstValue(of: portStream, orFailureOf: running)
        // The test's own pool logs apart: what it runs is the test's, not the server's.
        let inspection = setup.inspectionPool(logger: setup.logger(label: "storesync.test-server"))
        return TestServer(port: port, setup: setup, database: inspection, serviceGroup: serviceGroup, running: running)
    }

    /// Waits until the server ends by itself, without ``stop()`` (a service that failed), and
    /// answers what it ended with; call ``stop()`` afterwards to free the test's pool.
    ///
    /// - Returns: The error it ended with, `nil` when it ended without one.
    public func ending() async -> (any Error)? {
        do {
            try await running.value
            return nil
        } catch {
            return error
        }
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
