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

enum TestDirectory {
    static func make() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("storesync-client-\(UUID().uuidString)")
    }
}

/// Accounts the tests sign up; bcrypt cost is 4 on the test server.
enum TestAccount {
    static let password = "correct horse battery staple"

    static func email() -> String { "device-\(UUID().uuidString.prefix(8).lowercased())@example.com" }
}
