import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

/// The session — and its bearer token — lives in a session store, never in the cache.
@Suite struct SessionStoreTests {
    // On Apple platforms the default is the Keychain, which needs a signed test host.
    #if !canImport(Security)
    @Test func tokenStaysOutOfTheCacheByDefault() async throws {
        try await withLiveServer { server in
            let cache = InMemoryStore()
            let clock = server.clock
            let client = StoreSyncClient(
                configuration: .init(baseURL: server.baseURL, serverPublicKey: server.signingPublicKey), store: cache,
                now: { clock.now() })
            try await client.signUp(email: TestAccount.email(), password: TestAccount.password)
            _ = try await client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)
            #expect(await client.isEntitled(to: "premium"))

            #expect(cache.contents[CacheKeys.session] == nil)
            #expect(cache.contents[CacheKeys.deviceId] == nil, "the installation's ids stay on the device too")
            for (key, value) in cache.contents {
                #expect(!String(decoding: value, as: UTF8.self).contains("\"token\""), "\(key) holds a token")
            }
        }
    }
    #endif

    @Test func storesThatLeaveTheDeviceCannotHoldTheSession() {
        // iCloud key-value storage (`UbiquitousStore`, Apple platforms only) does not conform
        // either; on Linux the rule is checked with the stores that exist here.
        let defaults = UserDefaultsStore(defaults: .standard)
        #expect((defaults as any KeyValueStore) as? any SessionStore == nil)
        #expect((InMemoryStore() as any KeyValueStore) as? any SessionStore != nil)
        #expect((FileStore(directory: TestDirectory.make()) as any KeyValueStore) as? any SessionStore != nil)
        #if canImport(Security)
        #expect(StoreSyncClient.defaultSessionStore() is KeychainStore)
        #else
        #expect(StoreSyncClient.defaultSessionStore() is InMemoryStore)
        #endif
    }

    @Test func sessionAnEarlierVersionKeptInTheCacheMovesToTheSessionStore() async throws {
        try await withLiveServer { server in
            let cache = InMemoryStore()
            // The earlier layout: one store for the cache and the session.
            let session = try await TestDevice(server: server, store: cache, sessionStore: cache).client
                .signUp(email: TestAccount.email(), password: TestAccount.password)
            #expect(cache.contents[CacheKeys.session] != nil)

            let keychain = InMemoryStore()
            let upgraded = TestDevice(server: server, store: cache, sessionStore: keychain)
            #expect(await upgraded.client.session == session)
            #expect(cache.contents[CacheKeys.session] == nil)
            #expect(keychain.contents[CacheKeys.session] != nil)
            #expect(try await upgraded.client.refresh() == .notModified)
        }
    }

    @Test func oneStoreGivenForBothKeepsTheSession() async throws {
        try await withLiveServer { server in
            let directory = TestDirectory.make()
            let device = TestDevice(server: server, store: FileStore(directory: directory), sessionStore: FileStore(directory: directory))
            let session = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)

            let relaunched = TestDevice(server: server, store: FileStore(directory: directory), sessionStore: FileStore(directory: directory))
            #expect(await relaunched.client.session == session)
        }
    }
}
