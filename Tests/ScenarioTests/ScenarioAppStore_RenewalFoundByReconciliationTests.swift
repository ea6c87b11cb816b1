import AppStorePayloads
import Foundation
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite("App Store: renewal nobody uploaded") struct RenewalFoundByReconciliationTests {
    @Test("A renewal nobody uploaded is found by reconciliation")
    func aRenewalNoDeviceAndNoNotificationReportedIsFoundByTheBackgroundJob() async throws {
        try await Scenario.runWithAppStore(configure: Scenario.eagerReconciliation) { scenario, apple in
            let server = scenario.server
            try await scenario.accounts("X")
            let start = server.clock.now()
            let expires = start.addingTimeInterval(3_600)
            let first = TestPurchase.buy(
                TestCatalog.monthly, on: server, purchased: expires.addingTimeInterval(-30 * 86_400), expires: expires)
            let purchase = first.record.originalTransactionId
            let renewedUntil = expires.addingTimeInterval(30 * 86_400)
            let renewal = TestPurchase.buy(
                TestCatalog.monthly, on: server, original: purchase, purchased: expires.addingTimeInterval(-86_400),
                expires: renewedUntil)
            let renewed = ExpectedEntitlement("premium", product: TestCatalog.monthly, expiry: .at(renewedUntil))
            let expected = Expectation(
                devices: ["A": [renewed]], accounts: ["X": [renewed]], owners: [purchase: "X"],
                events: [purchase: ["purchaseClaimed", "renewed"]], holdings: ["X": [purchase]], purchases: 1)

            let a = try await scenario.device("A", signedInTo: "X")
            _ = try await a.client.record(signedTransaction: first.jws)
            // Apple renews it; the app is never opened and the DID_RENEW notification is lost.
            await apple.standIn.addTransactions([first.record, renewal.record])
            server.clock.set(expires.addingTimeInterval(60))

            let found = try await eventually { try await server.events(of: purchase).map(\.kind).contains("renewed") }
            #expect(found, "the reconciliation job refreshes the subscription that expired without news")
            _ = try await a.client.refresh()
            try await scenario.check(expected)
        }
    }
}
