import Foundation
@testable import StoreSyncClient
import StoreSyncTesting

/// One simulated device: a client with its own cache and a transport the test controls,
/// reading time from the server's clock.
struct TestDevice {
    let client: StoreSyncClient
    let store: any KeyValueStore
    let transport: ControlledTransport

    init(
        server: TestServer, store: any KeyValueStore = InMemoryStore(), sessionStore: (any KeyValueStore)? = nil,
        transport: ControlledTransport = ControlledTransport(), publicKey: String? = nil
    ) {
        self.store = store
        self.transport = transport
        let clock = server.clock
        client = StoreSyncClient(
            configuration: .init(baseURL: server.baseURL, serverPublicKey: publicKey ?? server.signingPublicKey),
            store: store, sessionStore: sessionStore, transport: transport, now: { clock.now() })
    }

    /// A device whose cache is a fresh directory on disk.
    static func onDisk(server: TestServer, directory: URL = TestDirectory.make()) -> TestDevice {
        TestDevice(server: server, store: FileStore(directory: directory))
    }
}

/// Scratch directories for on-disk caches, all under one directory per test process that is
/// removed when the process exits.
enum TestDirectory {
    private static let root: URL = {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("storesync-client-tests-\(ProcessInfo.processInfo.processIdentifier)")
        atexit { try? FileManager.default.removeItem(at: TestDirectory.root) }
        return root
    }()

    static func make() -> URL {
        root.appendingPathComponent(UUID().uuidString)
    }
}

/// Accounts the tests sign up; bcrypt cost is 4 on the test server.
enum TestAccount {
    static let password = "correct horse battery staple"

    static func email() -> String { "device-\(UUID().uuidString.prefix(8).lowercased())@example.com" }
}
