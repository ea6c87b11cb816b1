import Crypto
public import Foundation
import Logging
import NIOConcurrencyHelpers
public import PostgresLibPQ
import ServiceLifecycle
import StoreSyncAPI
public import StoreSyncCore
public import StoreSyncServer

/// A live StoreSync server for tests, on 127.0.0.1 with a port of its own: a fresh database in
/// the test cluster (real PostgreSQL), a test PKI its verifier trusts, an admin key, a fixed
/// signing key and a clock the test moves.
///
/// ```swift
/// let server = try await TestServer.start()
/// defer { Task { await server.stop() } }
/// ```
public final class TestServer: Sendable {
    public let baseURL: URL
    public let port: Int
    public let pki: TestPKI
    /// Signs StoreKit 2 transactions, renewal infos and notifications the server trusts.
    public let signer: AppStoreTestSigner
    public let adminKey: String
    /// The base64 Ed25519 public key clients pin.
    public let signingPublicKey: String
    public let clock: TestClock
    public let configuration: ServerConfiguration
    /// A pool on the server's database, for assertions on its tables.
    public let database: ConnectionPool
    public let databaseConfiguration: PostgresConfiguration

    private let serviceGroup: ServiceGroup
    private let running: Task<Void, any Error>
    /// Where the first instance keeps its roots and catalog files; `nil` for a second instance.
    private let scratch: URL?

    private init(
        port: Int, pki: TestPKI, signer: AppStoreTestSigner, adminKey: String, signingPublicKey: String,
        clock: TestClock, configuration: ServerConfiguration, database: ConnectionPool,
        databaseConfiguration: PostgresConfiguration, serviceGroup: ServiceGroup, running: Task<Void, any Error>,
        scratch: URL?
    ) {
        self.port = port
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
        self.pki = pki
        self.signer = signer
        self.adminKey = adminKey
        self.signingPublicKey = signingPublicKey
        self.clock = clock
        self.configuration = configuration
        self.database = database
        self.databaseConfiguration = databaseConfiguration
        self.serviceGroup = serviceGroup
        self.running = running
        self.scratch = scratch
    }

    /// Starts a server and waits until it listens.
    ///
    /// - Parameters:
    ///   - catalog: The products loaded at start.
    ///   - clock: The clock the server reads.
    ///   - database: A database to serve (the server migrates it), such as one in a
    ///     ``TestDatabase/dedicatedCluster(named:options:)``; nil for a fresh one in the shared cluster.
    ///   - pki: The test PKI the server trusts, when something else signs with it too (an App
    ///     Store Server API stand-in); a fresh one by default.
    ///   - configure: Changes to the test configuration (transfer policy, limits, …).
    /// - Returns: The running server.
    /// - Throws: When the database or the server cannot start.
    public static func start(
        catalog: [CatalogProduct] = TestCatalog.products,
        clock: TestClock = TestClock(),
        database: PostgresConfiguration? = nil,
        pki: TestPKI? = nil,
        configure: @Sendable (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        try await start(catalog: catalog, clock: clock, sharingWith: nil, database: database, pki: pki, configure: configure)
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
        try await start(catalog: [], clock: first.clock, sharingWith: first, database: nil, pki: nil, configure: configure)
    }

    private static func start(
        catalog: [CatalogProduct], clock: TestClock, sharingWith first: TestServer?, database: PostgresConfiguration?,
        pki: TestPKI?, configure: @Sendable (inout ServerConfiguration) -> Void
    ) async throws -> TestServer {
        if let first {
            var configuration = first.configuration
            configuration.catalogPath = nil
            configure(&configuration)
            return try await launch(
                configuration: configuration, database: first.databaseConfiguration, pki: first.pki,
                signer: first.signer, adminKey: first.adminKey, signingPublicKey: first.signingPublicKey, clock: clock,
                scratch: nil)
        }
        let pki = try pki ?? TestPKI.make()
        let signer = AppStoreTestSigner(pki: pki)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("storesync-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let rootsFile = scratch.appendingPathComponent("roots.pem")
        try Data(pki.rootPEM.utf8).write(to: rootsFile)
        let catalogFile = scratch.appendingPathComponent("catalog.json")
        try StoreSyncJSON.makeEncoder().encode(CatalogResponse(products: catalog)).write(to: catalogFile)

        let signingKey = Curve25519.Signing.PrivateKey()
        let adminKey = "test-admin-key-\(UUID().uuidString)"
        var configuration = ServerConfiguration(bundleId: signer.bundleId, environment: .sandbox)
        configuration.httpPort = 0
        configuration.appAppleId = signer.appAppleId
        configuration.trustedRootsPath = rootsFile.path
        configuration.catalogPath = catalogFile.path
        configuration.adminAPIKey = adminKey
        configuration.signingKey = signingKey.rawRepresentation
        configuration.passwordHashCost = 4
        configuration.databasePoolSize = 4
        configuration.schemaDirectory = TestDatabase.schemaDirectory.path
        configuration.logLevel = .error
        configure(&configuration)
        try configuration.validate()

        let databaseConfiguration: PostgresConfiguration
        if let database {
            databaseConfiguration = database
        } else {
            databaseConfiguration = try await TestDatabase.makeDatabase(migrationsDirectory: TestDatabase.schemaDirectory)
        }
        return try await launch(
            configuration: configuration, database: databaseConfiguration, pki: pki, signer: signer, adminKey: adminKey,
            signingPublicKey: signingKey.publicKey.rawRepresentation.base64EncodedString(), clock: clock, scratch: scratch)
    }

    private static func launch(
        configuration: ServerConfiguration, database databaseConfiguration: PostgresConfiguration, pki: TestPKI,
        signer: AppStoreTestSigner, adminKey: String, signingPublicKey: String, clock: TestClock, scratch: URL?
    ) async throws -> TestServer {
        var logger = Logger(label: "storesync.test-server")
        logger.logLevel = configuration.logLevel
        let (portStream, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = try await buildApplication(
            configuration: configuration, database: databaseConfiguration, metrics: TestMetrics.registry,
            logger: logger, now: { clock.now() }, onServerRunning: { port in portContinuation.yield(port) })
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
        let database = ConnectionPool(configuration: databaseConfiguration, size: 2, logger: logger)
        return TestServer(
            port: port, pki: pki, signer: signer, adminKey: adminKey, signingPublicKey: signingPublicKey, clock: clock,
            configuration: configuration, database: database, databaseConfiguration: databaseConfiguration,
            serviceGroup: serviceGroup, running: running, scratch: scratch)
    }

    /// Stops the server gracefully (in-flight requests finish) and frees its database pool.
    public func stop() async {
        await serviceGroup.triggerGracefulShutdown()
        _ = try? await running.value
        await database.shutdown()
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }
}

/// Why a test server did not come up.
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
