import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite("Upgrade within a subscription group") struct UpgradeTests {
    @Test("13. Upgrade within a subscription group on A → B sees the higher tier only")
    func upgradeShowsOnlyTheHigherTier() async throws {
        try await Scenario.run { scenario in
            let server = scenario.server
            try await scenario.accounts("X")
            let start = server.clock.now()
            let monthly = TestPurchase.buy(TestCatalog.monthly, on: server, purchased: start)
            let purchase = monthly.record.originalTransactionId
            let upgradedAt = start.addingTimeInterval(2 * 86_400)
            let proExpiry = upgradedAt.addingTimeInterval(30 * 86_400)
            // Apple re-signs the old transaction as upgraded and starts the higher tier in the same chain.
            let superseded = monthly.resigned(at: upgradedAt, on: server) { $0.isUpgraded = true }
            let pro = TestPurchase.buy(TestCatalog.monthlyPro, on: server, original: purchase, purchased: upgradedAt, expires: proExpiry)
            let higherTier: [ExpectedEntitlement] = [
                .init("premium", product: TestCatalog.monthlyPro, expiry: .at(proExpiry)),
                .init("pro", product: TestCatalog.monthlyPro, expiry: .at(proExpiry)),
            ]
            let expected = Expectation(
                devices: ["A": higherTier, "B": higherTier], accounts: ["X": higherTier], owners: [purchase: "X"],
                holdings: ["X": [purchase]], purchases: 1)

            let a = try await scenario.device("A", signedInTo: "X")
            _ = try await a.client.record(signedTransaction: monthly.jws)
            let b = try await scenario.device("B", signedInTo: "X")
            server.clock.set(upgradedAt)
            _ = try await a.client.record(signedTransaction: pro.jws)
            _ = try await a.client.record(signedTransaction: superseded.jws)
            _ = try await b.client.restore()
            _ = try await a.client.refresh()

            try await scenario.check(expected)
        }
    }
}
