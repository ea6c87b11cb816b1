import Crypto
import Foundation
public import Logging
public import PostgresLibPQ
import StoreSyncAPI
public import StoreSyncCore
public import StoreSyncServer

/// What a StoreSync under test is made of, however requests reach it: a database in the test
/// cluster (real PostgreSQL), a test PKI its verifier trusts, an admin key, a fixed signing key,
/// a clock the test moves and the configuration that names them.
///
/// ``TestApp`` serves it through the router in process, ``TestServer`` on a loopback port.
public struct TestSetup: Sendable {
    /// The certificate chain the application's verifier trusts.
    public let pki: TestPKI
    /// Signs StoreKit 2 transactions, renewal infos and notifications the server trusts.
    public let signer: AppStoreTestSigner
    /// The admin routes' bearer key.
    public let adminKey: String
    /// The base64 Ed25519 public key clients pin.
    public let signingPublicKey: String
    /// The clock the application reads.
    public let clock: TestClock
    /// The application's configuration, validated.
    public let configuration: ServerConfiguration
    /// The database the application serves, migrated.
    public let database: PostgresConfiguration
    /// Where the first instance keeps its roots and catalog files; `nil` for a second instance.
    let scratch: URL?

    /// Makes a fresh setup: a PKI, keys, roots and catalog files, and a database.
    ///
    /// - Parameters:
    ///   - catalog: The products loaded at start.
    ///   - clock: The clock the application reads.
    ///   - database: A database to serve (the application migrates it), such as one in a
    ///     ``PostgresLibPQTesting/TestCluster/dedicated(named:options:)`` cluster; nil for a
    ///     fresh one in the shared cluster.
    ///   - pki: The test PKI the application trusts, when something else signs with it too (an
    ///     App Store Server API stand-in); a fresh one by default.
    ///   - configure: Changes to the test configuration (transfer policy, limits, …).
    /// - Returns: The setup.
    /// - Throws: When the files or the database cannot be made, or the configuration is invalid.
    public static func make(
        catalog: [CatalogProduct] = TestCatalog.products,
        clock: TestClock = TestClock(),
        database: PostgresConfiguration? = nil,
        pki: TestPKI? = nil,
        configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestSetup {
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
        // Receipt stand-ins run in the test process, on the cooperative threads the whole
        // suite shares: on two busy cores an answer can take longer than the product's 10 s,
        // and the retry that follows would add a request to what a test counts. Tests of the
        // timeouts set their own.
        configuration.verifyReceiptRequestTimeout = .seconds(60)
        configuration.verifyReceiptTotalTimeout = .seconds(180)
        configure(&configuration)
        try configuration.validate()

        let served: PostgresConfiguration
        if let database {
            served = database
        } else {
            served = try await TestDatabase.makeDatabase()
        }
        return TestSetup(
            pki: pki, signer: signer, adminKey: adminKey,
            signingPublicKey: signingKey.publicKey.rawRepresentation.base64EncodedString(), clock: clock,
            configuration: configuration, database: served, scratch: scratch)
    }

    /// The setup of a second instance beside this one: the same database, trusted roots, keys
    /// and clock; no catalog file (the first instance loaded it into the database).
    ///
    /// - Parameter configure: Changes to this setup's configuration (an instance configured
    ///   differently, such as one trusting other roots).
    /// - Returns: The second instance's setup.
    public func secondInstance(configure: (inout ServerConfiguration) -> Void = { _ in }) -> TestSetup {
        var configuration = configuration
        configuration.catalogPath = nil
        configure(&configuration)
        return TestSetup(
            pki: pki, signer: signer, adminKey: adminKey, signingPublicKey: signingPublicKey, clock: clock,
            configuration: configuration, database: database, scratch: nil)
    }

    /// Builds the application on this setup, reading the setup's clock.
    ///
    /// - Parameters:
    ///   - logger: The application's logger.
    ///   - onServerRunning: Called with the bound port once a live server listens.
    /// - Returns: The application, ready to run or to test.
    /// - Throws: What ``StoreSyncServer/buildApplication(configuration:database:metrics:logger:now:onServerRunning:)`` throws.
    public func buildApplication(
        logger: Logger, onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> StoreSyncApplication {
        let clock = clock
        return try await StoreSyncServer.buildApplication(
            configuration: configuration, database: database, metrics: TestMetrics.registry, logger: logger,
            now: { clock.now() }, onServerRunning: onServerRunning)
    }

    /// A logger at the configuration's level.
    func logger(label: String) -> Logger {
        var logger = Logger(label: label)
        logger.logLevel = configuration.logLevel
        return logger
    }

    /// A small pool of the test's own on the application's database, for assertions on its tables.
    func inspectionPool(logger: Logger) -> ConnectionPool {
        ConnectionPool(configuration: database, size: 2, logger: logger)
    }

    /// Removes the roots and catalog files, once the instances using them have stopped.
    func removeFiles() {
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
    }
}
