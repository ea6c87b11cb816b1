import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

/// `catalog()`: the product ids come from the server, and a copy serves offline starts.
@Suite struct CatalogTests {
    @Test func catalogListsTheServersProductsAndIsCachedForOfflineStarts() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            #expect(await device.client.cachedCatalog == nil)
            let fetched = try await device.client.catalog()
            #expect(fetched.productIds == TestCatalog.products.map(\.productId).sorted())
            #expect(fetched.product(TestCatalog.seasonPass)?.durationSeconds == TestCatalog.seasonPassSeconds)
            #expect(!fetched.isCached)

            // The next launch, without a network.
            let relaunched = device.relaunched(on: server)
            relaunched.transport.isOffline = true
            let offline = try await relaunched.client.catalog()
            #expect(offline.isCached)
            #expect(offline.products == fetched.products)
            #expect(offline.fetchedAt == fetched.fetchedAt)
            #expect(await relaunched.client.cachedCatalog == offline)
        }
    }

    @Test func productDefinedOnTheServerReachesTheAppWithoutARelease() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            let before = try await device.client.catalog()
            let definition = ProductDefinition(type: .nonConsumable, entitlements: ["themes"])
            let response = try await server.send(
                "PUT", "/v1/admin/catalog/products/com.example.storesync.themes", token: server.adminKey, json: definition)
            #expect((200..<300).contains(response.status))

            let after = try await device.client.catalog()
            #expect(Set(after.productIds).subtracting(before.productIds) == ["com.example.storesync.themes"])
            #expect(after.product("com.example.storesync.themes")?.entitlements == ["themes"])
        }
    }

    @Test func offlineWithoutACachedCatalogIsAnError() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            device.transport.isOffline = true
            await #expect(throws: StoreSyncClientError.offline) { try await device.client.catalog() }
        }
    }

    static let portalAnswer = TransportResponse(
        status: 403, headers: ["Content-Type": "text/html"], body: Data("<html><body>Sign in to Airport Wi-Fi</body></html>".utf8))

    @Test func captivePortalAnsweringFallsBackToTheCachedCatalog() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            let fetched = try await device.client.catalog()

            device.transport.interceptingResponse = Self.portalAnswer
            let behindPortal = try await device.client.catalog()
            #expect(behindPortal.isCached)
            #expect(behindPortal.products == fetched.products)
            #expect(behindPortal.fetchedAt == fetched.fetchedAt)
        }
    }

    @Test func captivePortalAnsweringWithoutACachedCatalogIsAnErrorThatSaysSo() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            device.transport.interceptingResponse = Self.portalAnswer
            let error = await #expect(throws: StoreSyncClientError.self) { try await device.client.catalog() }
            #expect(error?.isForeignAnswer == true)
            #expect(error?.description.contains("StoreSync server was not reached") == true, "\(String(describing: error))")
            #expect(error?.description.contains("captive portal") == true)
        }
    }

    @Test func storeSyncRefusalIsThrownEvenWithACachedCatalog() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            _ = try await device.client.catalog()

            let refusal = Problem(.forbidden, detail: "because")
            device.transport.interceptingResponse = TransportResponse(
                status: refusal.status, headers: ["Content-Type": Problem.mediaType],
                body: try StoreSyncJSON.makeEncoder().encode(refusal))
            await #expect(throws: StoreSyncClientError.invalidInput(refusal)) { try await device.client.catalog() }
        }
    }

    @Test func unreadableCachedCatalogIsDiscardedAndReported() async throws {
        try await withLiveServer { server in
            let cache = InMemoryStore([CacheKeys.catalog: Data("not json".utf8)])
            let device = TestDevice(server: server, store: cache)
            #expect(await device.client.cachedCatalog == nil)
            #expect(cache.contents[CacheKeys.catalog] == nil)
            #expect(await device.client.integrityIssues.map(\.key) == [CacheKeys.catalog])
        }
    }

    @Test func coordinatorAsksStoreKitForTheCatalogsProducts() async throws {
        try await withLiveServer { server in
            let phone = PurchasingDevice(server: server)
            let products = try await phone.purchases.products()
            #expect(products == TestCatalog.products.map(\.productId).sorted())
        }
    }
}
