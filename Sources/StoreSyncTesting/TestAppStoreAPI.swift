public import Foundation
public import PostgresLibPQ
public import StoreSyncCore
public import StoreSyncServer

/// An App Store Server API stand-in and what points test servers at it: its API key as a
/// `.p8` file and its URL. The stand-in signs with the test PKI the servers it starts trust.
///
/// ```swift
/// try await TestAppStoreAPI.run { apple in
///     let server = try await apple.startServer()
///     await apple.standIn.addTransactions([purchase])
/// }
/// ```
public struct TestAppStoreAPI: Sendable {
    /// The stand-in of Apple's API.
    public let standIn: AppStoreServerAPIStandIn
    /// The clock the stand-in and the servers read.
    public let clock: TestClock
    /// The `.p8` file of the key the stand-in accepts.
    public let keyFile: URL

    /// Runs a stand-in for the duration of `body`.
    ///
    /// - Parameters:
    ///   - clock: The clock the stand-in and the servers started from it read.
    ///   - environment: The environment the stand-in plays: what it writes into answers, and
    ///     how far back its notification history reaches.
    ///   - body: The test, given the stand-in.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws, or when the stand-in cannot start.
    @discardableResult
    public static func run<Result: Sendable>(
        clock: TestClock = TestClock(), environment: AppStoreEnvironment = .sandbox,
        _ body: @Sendable (TestAppStoreAPI) async throws -> Result
    ) async throws -> Result {
        let signer = AppStoreTestSigner(pki: try TestPKI.make())
        let key = TestAppStoreAPIKey()
        let directory = TestDirectory.make()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyFile = try key.writeP8File(into: directory)
        return try await AppStoreServerAPIStandIn.run(
            signer: signer, key: key, environment: environment, now: { clock.now() }) { standIn in
            try await body(TestAppStoreAPI(standIn: standIn, clock: clock, keyFile: keyFile))
        }
    }

    /// Points a server's configuration at the stand-in, with its key.
    ///
    /// - Parameter configuration: The configuration to change.
    public func configure(_ configuration: inout ServerConfiguration) {
        configuration.appStoreAPIKey = AppStoreAPIKeySettings(
            keyId: standIn.key.keyId, issuerId: standIn.key.issuerId, privateKeyPath: keyFile.path)
        configuration.appStoreAPIURL = standIn.baseURL
    }

    /// Starts a server that asks the stand-in and trusts what it signs; test notifications
    /// are then posted to that server.
    ///
    /// - Parameters:
    ///   - database: The database to serve (another server's, for a restart); a fresh one by default.
    ///   - configure: More changes to the configuration.
    /// - Returns: The running server.
    /// - Throws: When the server cannot start.
    public func startServer(
        database: PostgresConfiguration? = nil, configure: @Sendable (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> TestServer {
        let setup = try await TestSetup.make(clock: clock, database: database, pki: standIn.signer.pki) { settings in
            self.configure(&settings)
            configure(&settings)
        }
        let server = try await TestServer.start(serving: setup)
        await standIn.setNotificationURL(server.baseURL.appendingPathComponent("v1/notifications/appstore"))
        return server
    }
}

/// Runs a body against a fresh live server wired to an App Store Server API stand-in, and stops
/// both afterwards, also when the body throws.
///
/// - Parameters:
///   - clock: The clock the server and the stand-in read.
///   - appleEnvironment: The environment the stand-in plays (``TestAppStoreAPI/run(clock:environment:_:)``).
///   - configure: Changes to the test configuration.
///   - body: The test, given the server and the stand-in.
/// - Returns: What the body returns.
/// - Throws: What the start or the body throws.
@discardableResult
public func withAppStoreAPIServer<Result: Sendable>(
    clock: TestClock = TestClock(),
    appleEnvironment: AppStoreEnvironment = .sandbox,
    configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: @Sendable (TestServer, AppStoreServerAPIStandIn) async throws -> Result
) async throws -> Result {
    try await TestAppStoreAPI.run(clock: clock, environment: appleEnvironment) { api in
        let server = try await api.startServer(configure: configure)
        do {
            let result = try await body(server, api.standIn)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }
}
