import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite("Non-renewing subscriptions stack") struct NonRenewingStackTests {
    @Test("12. Two non-renewing purchases on two devices → durations stack; one refunded → the stack shrinks accordingly")
    func durationsStackAndShrinkOnRefund() async throws {
        try await Scenario.run { scenario in
            let server = scenario.server
            try await scenario.accounts("X")
            let start = server.clock.now()
            let day: TimeInterval = 86_400
            let pass = TimeInterval(TestCatalog.seasonPassSeconds)
            let first = TestPurchase.buy(TestCatalog.seasonPass, on: server, purchased: start)
            let second = TestPurchase.buy(TestCatalog.seasonPass, on: server, purchased: start.addingTimeInterval(day))
            // The second pass starts where the first ends.
            let stacked = ExpectedEntitlement("season", product: TestCatalog.seasonPass, expiry: .at(start.addingTimeInterval(2 * pass)))
            let shrunk = ExpectedEntitlement("season", product: TestCatalog.seasonPass, expiry: .at(start.addingTimeInterval(pass)))
            let both = Expectation(
                devices: ["A": [stacked], "B": [stacked]], accounts: ["X": [stacked]],
                owners: [first.record.originalTransactionId: "X", second.record.originalTransactionId: "X"], purchases: 2)
            let afterRefund = Expectation(
                devices: ["A": [shrunk], "B": [shrunk]], accounts: ["X": [shrunk]],
                events: [second.record.originalTransactionId: ["purchaseClaimed", "revoked"]], purchases: 2)

            let a = try await scenario.device("A", signedInTo: "X")
            let b = try await scenario.device("B", signedInTo: "X")
            _ = try await a.client.record(signedTransaction: first.jws)
            server.clock.advance(by: day)
            _ = try await b.client.record(signedTransaction: second.jws)
            _ = try await a.client.refresh()
            try await scenario.check(both)

            server.clock.advance(by: day)
            try await scenario.notify(.refund, transaction: second.refunded(at: server.clock.now(), on: server).record)
            _ = try await a.client.refresh()
            _ = try await b.client.refresh()
            try await scenario.check(afterRefund)
        }
    }
}
