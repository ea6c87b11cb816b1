public import PostgresLibPQ
public import StoreSyncServer

/// A StoreSync a test runs in this process, through its router (``TestApp``) or on a loopback
/// port (``TestServer``): its ``TestSetup``, a pool on its database for checks on the tables,
/// and a way to send it requests.
public protocol TestStoreSync: TestEndpoint {
    /// The database, PKI, keys, clock and configuration it serves with.
    var setup: TestSetup { get }
    /// A pool on the application's database, for assertions on its tables.
    var database: ConnectionPool { get }
    /// Stops it: in-flight requests finish, then its services and the test's pool shut down.
    func stop() async
}

extension TestStoreSync {
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
