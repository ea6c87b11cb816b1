import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting

/// The cast of one scenario: a live server, app accounts and devices by the names the
/// scenario's sentence uses.
///
/// Each account is signed up once here; the session that creates it is the "server side"
/// view used to read the account's entitlements, independent of any device.
final class Scenario {
    struct Account: Sendable {
        let name: String
        /// Empty for an account bound to the app backend's user id (it has no email).
        let email: String
        let session: SessionResponse
        /// The app backend's user id the account is bound to, if it is.
        var externalUserId: String?

        var id: UUID { session.accountId }
        var appAccountToken: UUID { session.appAccountToken }
    }

    let server: TestServer
    private(set) var accounts: [String: Account] = [:]
    private(set) var devices: [String: TestDevice] = [:]

    init(server: TestServer) {
        self.server = server
    }

    /// Runs a scenario against a fresh server (on `database`, else a fresh one) and always stops it.
    static func run(
        database: PostgresConfiguration? = nil,
        configure: @Sendable (inout ServerConfiguration) -> Void = { _ in }, _ body: (Scenario) async throws -> Void
    ) async throws {
        try await withLiveServer(database: database, configure: { settings in
            allowManySignIns(&settings)
            configure(&settings)
        }) { server in try await body(Scenario(server: server)) }
    }

    /// The same cast on another server over the same database (a restart): the accounts carry
    /// over; the devices do not, since they were pinned to the stopped server's key.
    func restarted(on server: TestServer) -> Scenario {
        let scenario = Scenario(server: server)
        scenario.accounts = accounts
        return scenario
    }

    /// Every simulated device signs in from 127.0.0.1: the per-address login limit is for real
    /// clients, not for a test that signs in dozens of devices from one address.
    static func allowManySignIns(_ settings: inout ServerConfiguration) {
        settings.loginLimits.attemptsPerAddress = 100_000
    }

    /// Signs up the named accounts.
    func accounts(_ names: String...) async throws {
        for name in names {
            let email = "\(name.lowercased())-\(UUID().uuidString.prefix(8).lowercased())@example.com"
            accounts[name] = Account(name: name, email: email, session: try await server.signUp(email: email))
        }
    }

    /// Binds the named accounts to the app backend's user ids (bring your own identity); the
    /// backend mints each one's server-side session.
    func externalAccounts(_ names: String...) async throws {
        for name in names {
            let id = "\(name.lowercased())-\(UUID().uuidString.prefix(8).lowercased())"
            let session = try await server.mintSession(forExternalUser: id, adminKey: server.adminKey, deviceName: "backend")
            accounts[name] = Account(name: name, email: "", session: session, externalUserId: id)
        }
    }

    /// A new device (empty cache) that adopts a session the app's backend minted for the account.
    @discardableResult
    func device(_ name: String, adoptingSessionOf accountName: String) async throws -> TestDevice {
        guard let id = account(accountName).externalUserId else {
            preconditionFailure("\(accountName) is not bound to an external user id")
        }
        let device = TestDevice(server: server)
        try await device.client.adoptSession(
            try await server.mintSession(forExternalUser: id, adminKey: server.adminKey, deviceName: name))
        devices[name] = device
        return device
    }

    func account(_ name: String) -> Account {
        guard let account = accounts[name] else { preconditionFailure("no account named \(name) in this scenario") }
        return account
    }

    /// A new device (empty cache) signed in to an account.
    @discardableResult
    func device(_ name: String, signedInTo accountName: String, store: any KeyValueStore = InMemoryStore()) async throws
        -> TestDevice
    {
        let device = TestDevice(server: server, store: store)
        try await device.client.signIn(email: account(accountName).email, password: TestAccount.password, deviceName: name)
        devices[name] = device
        return device
    }

    func device(_ name: String) -> TestDevice {
        guard let device = devices[name] else { preconditionFailure("no device named \(name) in this scenario") }
        return device
    }

    /// Replaces a device by a relaunch of the same installation (same cache and network).
    func relaunch(_ name: String) -> TestDevice {
        let relaunched = device(name).relaunched(on: server)
        devices[name] = relaunched
        return relaunched
    }

    /// The account's name, for failure messages.
    func name(of accountId: UUID?) -> String {
        guard let accountId else { return "nobody" }
        return accounts.values.first { $0.id == accountId }?.name ?? accountId.uuidString
    }

    /// Defines a product through the admin API, as the app's operator would.
    func define(_ productId: String, _ definition: ProductDefinition) async throws {
        let response = try await server.send(
            "PUT", "/v1/admin/catalog/products/\(productId)", token: server.adminKey, json: definition)
        guard (200..<300).contains(response.status) else {
            throw TestServerError.unexpected("defining \(productId): \(response.status) \(response.problem?.description ?? "")")
        }
    }

    /// Posts a Server Notification and requires Apple's 200.
    func notify(
        _ type: NotificationType, transaction: TransactionRecord? = nil, renewal: RenewalInfo? = nil
    ) async throws {
        let response = try await server.postNotification(type, transaction: transaction, renewal: renewal)
        guard response.status == 200 else {
            throw TestServerError.unexpected("notification \(type.rawValue): \(response.status) \(response.problem?.description ?? "")")
        }
    }
}
