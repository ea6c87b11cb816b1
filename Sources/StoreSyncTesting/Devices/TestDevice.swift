public import Foundation
public import StoreSyncClient

/// One simulated device: a client with its own cache and a transport the test controls,
/// reading time from the server's clock, or from a clock of its own set wrong.
public struct TestDevice: Sendable {
    /// The client under test.
    public let client: StoreSyncClient
    /// Its cache, for tests that inspect or tamper with what it stored.
    public let store: any KeyValueStore
    /// Where its session lives, apart from the cache.
    public let sessionStore: any SessionStore
    /// Its network, for tests that cut it or hold responses.
    public let transport: ControlledTransport
    /// The clock it reads; the server's unless the test gave it its own.
    public let clock: TestClock

    /// Creates a device talking to a test server.
    ///
    /// - Parameters:
    ///   - server: The server; its clock is the device's clock and its key is pinned.
    ///   - store: The cache; in memory by default.
    ///   - sessionStore: Where the session is kept; when `nil`, a ``FileStore`` beside a
    ///     ``FileStore`` cache (so a relaunch on the same directory finds it), else memory.
    ///   - transport: The network; a fresh online one by default.
    ///   - publicKey: The pinned snapshot key; the server's by default.
    ///   - sleep: The retry timer's wait; `Task.sleep` by default, a ``ManualSleeper`` in
    ///     tests of the timer.
    ///   - clock: The device's clock; the server's by default, a clock of its own to set it
    ///     ahead of or behind the server's.
    public init(
        server: TestServer, store: any KeyValueStore = InMemoryStore(), sessionStore: (any SessionStore)? = nil,
        transport: ControlledTransport = ControlledTransport(), publicKey: String? = nil,
        sleep: @escaping @Sendable (TimeInterval) async throws -> Void = StoreSyncClient.sleepOnTask,
        clock: TestClock? = nil
    ) {
        self.store = store
        self.transport = transport
        let sessionStore = sessionStore ?? Self.sessionStore(beside: store)
        self.sessionStore = sessionStore
        let clock = clock ?? server.clock
        self.clock = clock
        client = StoreSyncClient(
            configuration: .init(baseURL: server.baseURL, serverPublicKey: publicKey ?? server.signingPublicKey),
            store: store, sessionStore: sessionStore, transport: transport, now: { clock.now() }, sleep: sleep)
    }

    private static func sessionStore(beside store: any KeyValueStore) -> any SessionStore {
        guard let files = store as? FileStore else { return InMemoryStore() }
        return FileStore(directory: files.directory.appendingPathExtension("session"))
    }

    /// A device whose cache is a fresh directory on disk.
    ///
    /// - Parameters:
    ///   - server: The server.
    ///   - directory: The cache directory; a new scratch directory by default.
    /// - Returns: The device.
    public static func onDisk(server: TestServer, directory: URL = TestDirectory.make()) -> TestDevice {
        TestDevice(server: server, store: FileStore(directory: directory))
    }

    /// The same installation launched again: a new client on this device's cache and network,
    /// as after the app was quit and reopened.
    ///
    /// - Parameter server: The server.
    /// - Returns: The relaunched device.
    public func relaunched(on server: TestServer) -> TestDevice {
        TestDevice(server: server, store: store, sessionStore: sessionStore, transport: transport, clock: clock)
    }
}
