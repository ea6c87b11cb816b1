import AppStorePayloads
import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// The caches serve only what is still true: changes made anywhere — a notification, a
/// transfer, another server instance — reach every instance.
@Suite struct SnapshotCacheTests {
    /// Polls until `condition` holds: notifications travel asynchronously.
    private func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        for _ in 0..<100 {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    private func withTwoInstances(_ body: (TestApp, TestApp) async throws -> Void) async throws {
        try await withServer { first in
            try await withSecondInstance(of: first) { second in try await body(first, second) }
        }
    }

    @Test func aSecondLookupIsServedFromTheCacheWithTheSameBody() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            _ = try await server.buy(TestPurchases.record(purchased: server.clock.now()), token: account.token)
            let first = try await server.send("GET", "/v1/entitlements", token: account.token)
            let second = try await server.send("GET", "/v1/entitlements", token: account.token)
            #expect(first.body == second.body, "a cached snapshot is returned as it was signed")
        }
    }

    @Test func aRefundProcessedByAnotherInstanceReachesThisInstancesCache() async throws {
        try await withTwoInstances { first, second in
            let account = try await first.signUp()
            let purchase = TestPurchases.record(purchased: first.clock.now().addingTimeInterval(-60))
            _ = try await first.buy(purchase, token: account.token)
            #expect(try await first.entitlementIds(token: account.token) == ["premium"])

            var refunded = purchase
            refunded.revocationDate = first.clock.now()
            refunded.signedDate = first.clock.now()
            #expect(try await second.notify(.refund, transaction: refunded) == "processed")
            #expect(try await eventually { try await first.entitlementIds(token: account.token).isEmpty })
        }
    }

    @Test func aTransferMadeOnAnotherInstanceReachesTheLosersCache() async throws {
        try await withTwoInstances { first, second in
            let x = try await first.signUp()
            let y = try await first.signUp()
            let purchase = TestPurchases.record(purchased: first.clock.now())
            _ = try await first.buy(purchase, token: x.token)
            #expect(try await first.entitlementIds(token: x.token) == ["premium"])
            _ = try await second.restore([second.entry(purchase)], token: y.token)
            #expect(try await eventually { try await first.entitlementIds(token: x.token).isEmpty })
        }
    }

    @Test func aSignOutOnAnotherInstanceEndsTheSessionEverywhere() async throws {
        try await withTwoInstances { first, second in
            let account = try await first.signUp()
            #expect(try await first.send("GET", "/v1/entitlements", token: account.token).status == 200)
            #expect(try await second.send("DELETE", "/v1/sessions/current", token: account.token).status == 204)
            #expect(try await eventually { try await first.send("GET", "/v1/entitlements", token: account.token).status == 401 })
        }
    }

    @Test func aProductDefinedOnAnotherInstanceGrantsEverywhere() async throws {
        try await withTwoInstances { first, second in
            let account = try await first.signUp()
            _ = try await first.buy(TestPurchases.record("com.example.later", purchased: first.clock.now()), token: account.token)
            #expect(try await first.entitlementIds(token: account.token).isEmpty)
            let defined = try await second.send(
                "PUT", "/v1/admin/catalog/products/com.example.later", token: second.adminKey,
                json: ProductDefinition(type: .nonConsumable, entitlements: ["later"]))
            #expect(defined.status == 200)
            #expect(try await eventually { try await first.entitlementIds(token: account.token) == ["later"] })
        }
    }

    @Test func anUploadOnAnotherInstanceReachesThisInstancesCache() async throws {
        try await withTwoInstances { first, second in
            let account = try await first.signUp()
            #expect(try await first.entitlementIds(token: account.token).isEmpty)
            _ = try await second.buy(TestPurchases.record(purchased: first.clock.now()), token: account.token)
            #expect(try await eventually { try await first.entitlementIds(token: account.token) == ["premium"] })
        }
    }
}
