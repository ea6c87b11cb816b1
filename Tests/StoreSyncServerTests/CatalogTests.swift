import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite struct CatalogTests {
    @Test func theCatalogLoadedAtStartIsServed() async throws {
        try await withServer { server in
            let catalog = try await server.send("GET", "/v1/catalog").decode(CatalogResponse.self)
            #expect(catalog.products.map(\.productId) == TestCatalog.products.map(\.productId).sorted())
        }
    }

    /// Another instance defines a product while this one's reload cannot read the catalog (its
    /// table locked past the lock timeout): the reload is tried again until it succeeds,
    /// rather than leaving this instance on the old catalog until the next change.
    @Test func aCatalogReloadThatFailsIsTriedAgain() async throws {
        try await withServer(configure: { $0.databaseLockTimeoutSeconds = 1 }) { server in
            // The other instance's write, its notification held back (triggers off for this
            // transaction), so that the notification below is the one this instance acts on.
            try await server.database.withTransaction { connection in
                try await connection.execute("SET LOCAL session_replication_role = replica")
                try await connection.execute(
                    "INSERT INTO products (product_id, type, entitlements) VALUES ('com.example.storesync.later', 'nonConsumable', '{later}')")
            }
            try await server.database.withTransaction { blocker in
                try await blocker.execute("LOCK TABLE products IN ACCESS EXCLUSIVE MODE")
                try await server.database.withConnection { try await $0.execute("SELECT pg_notify('storesync_catalog', '')") }
                // The reload waits for the lock, then gives up at the lock timeout.
                let waited = try await eventually { try await server.someoneWaitsForALock() }
                try #require(waited, "the reload never asked for the catalog")
                let gaveUp = try await eventually { try await !server.someoneWaitsForALock() }
                try #require(gaveUp)
            }

            let reloaded = try await eventually {
                let catalog = try await server.send("GET", "/v1/catalog").decode(CatalogResponse.self)
                return catalog.products.contains { $0.productId == "com.example.storesync.later" }
            }
            #expect(reloaded, "the failed reload was never tried again")
        }
    }

    @Test func aPurchaseOfAnUnknownProductGrantsOnceTheProductIsDefinedWithoutResending() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let purchase = TestPurchases.record("com.example.storesync.new-pack", purchased: server.clock.now())
            let response = try await server.buy(purchase, token: account.token)
            #expect(response.verdicts.map(\.verdict) == [.accepted])
            #expect(response.snapshot.entitlements.isEmpty)
            let etag = try #require(try await server.send("GET", "/v1/entitlements", token: account.token).header("ETag"))

            let defined = try await server.send(
                "PUT", "/v1/admin/catalog/products/com.example.storesync.new-pack", token: server.adminKey,
                json: ProductDefinition(type: .nonConsumable, entitlements: ["pack"]))
            #expect(defined.status == 200)
            let after = try await server.send("GET", "/v1/entitlements", token: account.token, headers: ["If-None-Match": etag])
            #expect(after.status == 200)
            #expect(try after.decode(Snapshot.self).entitlements.map(\.entitlementId) == ["pack"])
        }
    }

    @Test(arguments: [
        ProductDefinition(type: .nonRenewing, entitlements: ["season"]),
        ProductDefinition(type: .nonConsumable, entitlements: ["premium"], durationSeconds: 60),
        ProductDefinition(type: .nonConsumable, entitlements: ["", "x"]),
        ProductDefinition(type: .nonConsumable, entitlements: ["a", "a"]),
        ProductDefinition(productId: "other", type: .nonConsumable, entitlements: ["premium"]),
        ProductDefinition(type: .nonConsumable, entitlements: ["premium"], gracePeriodSeconds: 10),
        // No rule of the catalog names U+0000; PostgreSQL refuses it, and that is a 400 too.
        ProductDefinition(type: .nonConsumable, entitlements: ["pre\u{0}mium"]),
        ProductDefinition(type: .nonConsumable, entitlements: ["premium"], subscriptionGroupId: "group\u{0}"),
    ])
    func invalidDefinitionsAreRefusedAndChangeNothing(_ definition: ProductDefinition) async throws {
        try await withServer { server in
            let before = try await server.count("products")
            let response = try await server.send(
                "PUT", "/v1/admin/catalog/products/com.example.new", token: server.adminKey, json: definition)
            #expect(response.status == 400)
            #expect(try await server.count("products") == before)
        }
    }

    @Test func definingAProductNeedsTheAdminKey() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let response = try await server.send(
                "PUT", "/v1/admin/catalog/products/com.example.new", token: account.token,
                json: ProductDefinition(type: .nonConsumable, entitlements: ["premium"]))
            #expect(response.status == 401)
        }
    }
}
