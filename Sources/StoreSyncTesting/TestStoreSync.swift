public import PostgresLibPQ
public import StoreSyncCore
public import StoreSyncServer

/// A StoreSync a test runs in this process, through its router (``TestApp``) or on a loopback
/// port (``TestServer``): its ``TestSetup``, a pool on its database for checks on the tables,
/// and a way to send it requests.
public protocol TestStoreSync: TestEndpoint {
    /// The database, PKI, keys, clock and configuration it serves with.
    var setup: TestSetup { get }
    /// A pool on the application's database, for assertions on its tables.
    var database: ConnectionPool { get }

    /// Starts an instance serving `setup` and returns once it answers requests (migrations
    /// applied, catalog loaded).
    ///
    /// - Parameter setup: What it serves.
    /// - Returns: The running instance.
    /// - Throws: When the application cannot be built or does not start.
    static func start(serving setup: TestSetup) async throws -> Self

    /// Stops it once the test is done with it: its services and the test's pool shut down.
    func stop() async
}

extension TestStoreSync {
    /// Starts an instance on a fresh ``TestSetup``.
    ///
    /// - Parameters:
    ///   - catalog: The products loaded at start.
    ///   - clock: The clock the application reads.
    ///   - database: A database to serve (the application migrates it), such as one in a
    ///     ``PostgresLibPQTesting/TestCluster/dedicated(named:options:)`` cluster; nil for a
    ///     fresh one in the shared cluster.
    ///   - configure: Changes to the test configuration (transfer policy, limits, …).
    /// - Returns: The running instance.
    /// - Throws: When the database or the application cannot start.
    public static func start(
        catalog: [CatalogProduct] = TestCatalog.products,
        clock: TestClock = TestClock(),
        database: PostgresConfiguration? = nil,
        configure: @Sendable (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> Self {
        try await start(serving: try await TestSetup.make(catalog: catalog, clock: clock, database: database, configure: configure))
    }

    /// Starts a second instance beside a running one: the same database, trusted roots, keys
    /// and clock, its own caches — two instances behind one load balancer.
    ///
    /// - Parameters:
    ///   - first: The running instance to share with.
    ///   - configure: Changes to the first instance's configuration (an instance configured
    ///     differently, such as one trusting other roots).
    /// - Returns: The second instance; stop it before `first`.
    /// - Throws: When the application does not start.
    public static func secondInstance(
        of first: Self, configure: @Sendable (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> Self {
        try await start(serving: first.setup.secondInstance(configure: configure))
    }

    /// The test PKI the application's verifier trusts.
    public var pki: TestPKI { setup.pki }
    /// Signs StoreKit 2 transactions, renewal infos and notifications the application trusts.
    public var signer: AppStoreTestSigner { setup.signer }
    /// The admin routes' bearer key.
    public var adminKey: String { setup.adminKey }
    /// The base64 Ed25519 public key clients pin.
    public var signingPublicKey: String { setup.signingPublicKey }
    /// The clock the application reads.
    public var clock: TestClock { setup.clock }
    /// The application's configuration.
    public var configuration: ServerConfiguration { setup.configuration }
    /// Where the application's database is.
    public var databaseConfiguration: PostgresConfiguration { setup.database }
}

/// Runs a body against a second instance of a running one (the same database, its own caches:
/// two instances behind one load balancer) and stops that instance afterwards, also when the
/// body throws.
///
/// - Parameters:
///   - first: The running instance.
///   - configure: Changes to the first instance's configuration (other trusted roots, …).
///   - body: The test, given the second instance.
/// - Returns: What the body returns.
/// - Throws: What the start or the body throws.
@discardableResult
public func withSecondInstance<Instance: TestStoreSync, Result: Sendable>(
    of first: Instance,
    configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: (Instance) async throws -> Result
) async throws -> Result {
    try await stopping(try await Instance.secondInstance(of: first, configure: configure), after: body)
}

/// The first value an instance's start delivers (its port, its client), or — when `running`
/// ends first — the error it ended with.
func firstValue<Value: Sendable>(of values: AsyncStream<Value>, orFailureOf running: Task<Void, any Error>) async throws -> Value {
    var iterator = values.makeAsyncIterator()
    guard let value = await iterator.next() else {
        try await running.value
        throw TestServerError.didNotStart
    }
    return value
}

/// Runs `body` with a started instance and stops the instance afterwards, also when `body` throws.
func stopping<Instance: TestStoreSync, Result: Sendable>(
    _ instance: Instance, after body: (Instance) async throws -> Result
) async throws -> Result {
    do {
        let result = try await body(instance)
        await instance.stop()
        return result
    } catch {
        await instance.stop()
        throw error
    }
}
