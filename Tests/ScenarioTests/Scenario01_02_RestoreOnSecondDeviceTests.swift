import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite("Restore on a second device") struct RestoreOnSecondDeviceTests {
    @Test("1. Buy a non-consumable on A; restore on B with an empty cache → B entitled, one purchase on the server")
    func restoreWithAnEmptyCache() async throws {
        try await Scenario.run { scenario in
            try await scenario.accounts("X")
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: scenario.server)
            let purchase = lifetime.record.originalTransactionId
            let premium = ExpectedEntitlement("premium", product: TestCatalog.lifetime, expiry: .lifetime)
            let expected = Expectation(
                devices: ["A": [premium], "B": [premium]], accounts: ["X": [premium]], owners: [purchase: "X"],
                events: [purchase: ["purchaseClaimed"]], holdings: ["X": [purchase]], purchases: 1)

            let a = try await scenario.device("A", signedInTo: "X")
            _ = try await a.client.record(signedTransaction: lifetime.jws)
            let b = try await scenario.device("B", signedInTo: "X")
            let restored = try await b.client.restore()

            // B started empty: it presents only what its sign-in fetched from the server.
            #expect(restored.verdicts.map(\.verdict) == [.known])
            try await scenario.check(expected)
        }
    }

    @Test("2. B's restore produces a new transaction id with the same original id (StoreKit 1 style) → still one purchase")
    func restoredTransactionWithANewIdIsTheSamePurchase() async throws {
        try await Scenario.run { scenario in
            try await scenario.accounts("X")
            let bought = TestPurchase.buy(TestCatalog.lifetime, on: scenario.server)
            let purchase = bought.record.originalTransactionId
            let restoredCopy = TestPurchase.buy(TestCatalog.lifetime, on: scenario.server, original: purchase)
            let expected = Expectation(
                devices: ["A": ["premium"], "B": ["premium"]], accounts: ["X": ["premium"]], owners: [purchase: "X"],
                events: [purchase: ["purchaseClaimed"]], holdings: ["X": [purchase]], purchases: 1)

            let a = try await scenario.device("A", signedInTo: "X")
            _ = try await a.client.record(signedTransaction: bought.jws)
            let b = try await scenario.device("B", signedInTo: "X")
            _ = try await b.client.record(signedTransaction: restoredCopy.jws)
            let restored = try await b.client.restore()
            _ = try await a.client.refresh()

            #expect(restored.entitlements.map(\.originalTransactionId) == [purchase])
            #expect(restored.snapshot.transactions.count == 2, "two transactions, one chain")
            try await scenario.check(expected)
        }
    }
}
