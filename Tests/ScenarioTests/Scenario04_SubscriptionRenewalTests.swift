import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite("Subscription renewal") struct SubscriptionRenewalTests {
    @Test("4. Subscription renews on A; B holds a stale cache → B ends with the later expiry; an older JWS arriving late never rolls it back")
    func renewalWinsOverAStaleCacheAndALateOlderVersion() async throws {
        try await Scenario.run { scenario in
            let server = scenario.server
            try await scenario.accounts("X")
            let start = server.clock.now()
            let first = TestPurchase.buy(TestCatalog.monthly, on: server, expires: start.addingTimeInterval(30 * 86_400))
            let purchase = first.record.originalTransactionId
            // Apple signs the renewal a month later: a new transaction of the same chain.
            let renewedAt = start.addingTimeInterval(29 * 86_400)
            let renewal = TestPurchase.buy(
                TestCatalog.monthly, on: server, original: purchase, purchased: renewedAt,
                expires: start.addingTimeInterval(60 * 86_400))
            let later = ExpectedEntitlement(
                "premium", product: TestCatalog.monthly, expiry: .at(start.addingTimeInterval(60 * 86_400)))
            let expected = Expectation(
                devices: ["A": [later], "B": [later]], accounts: ["X": [later]], owners: [purchase: "X"],
                holdings: ["X": [purchase]], purchases: 1)

            let a = try await scenario.device("A", signedInTo: "X")
            _ = try await a.client.record(signedTransaction: first.jws)
            let b = try await scenario.device("B", signedInTo: "X")
            let stale = await b.client.entitlements().entitlements.first?.expiresAt
            #expect(stale == start.addingTimeInterval(30 * 86_400), "B caches the first month")

            server.clock.set(renewedAt)
            _ = try await a.client.record(signedTransaction: renewal.jws)
            _ = try await b.client.restore()
            // StoreKit re-delivers the first month's JWS to B, and Apple's older notification arrives late.
            _ = try await b.client.record(signedTransaction: first.jws)
            try await scenario.notify(.didRenew, transaction: first.record)
            _ = try await a.client.refresh()
            _ = try await b.client.refresh()

            try await scenario.check(expected)
        }
    }
}
