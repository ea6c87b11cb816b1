import AppStorePayloads
import Foundation
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite("App Store: refund lost during downtime") struct RefundRecoveredOnRestartTests {
    @Test("A refund notification lost during downtime is recovered on restart")
    func aRefundLostWhileTheServerWasDownIsRecoveredWhenItStartsAgain() async throws {
        try await TestAppStoreAPI.run { apple in
            let first = try await apple.startServer(configure: Scenario.allowManySignIns)
            let scenario = Scenario(server: first)
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: first)
            let purchase = lifetime.record.originalTransactionId
            do {
                try await scenario.accounts("X")
                let a = try await scenario.device("A", signedInTo: "X")
                _ = try await a.client.record(signedTransaction: lifetime.jws)
                try await scenario.check(Expectation(accounts: ["X": ["premium"]], owners: [purchase: "X"]))
            } catch {
                await first.stop()
                throw error
            }
            let database = first.databaseConfiguration
            await first.stop()

            // While nobody serves, Apple refunds the purchase and its notification finds no server.
            apple.clock.advance(by: 3_600)
            let refund = lifetime.refunded(at: apple.clock.now(), on: first)
            await apple.standIn.addTransactions([refund.record])
            await apple.standIn.addNotification(
                AppStoreServerAPIStandInNotification(type: .refund, signedDate: apple.clock.now(), transaction: refund.record))
            apple.clock.advance(by: 3_600)

            let second = try await apple.startServer(database: database, configure: Scenario.allowManySignIns)
            do {
                let restarted = scenario.restarted(on: second)
                let recovered = try await eventually {
                    try await second.events(of: purchase).map(\.kind).contains("revoked")
                }
                #expect(recovered, "the pass the server runs as it starts replays the refund")
                try await restarted.check(Expectation(
                    accounts: ["X": []], owners: [purchase: "X"], events: [purchase: ["purchaseClaimed", "revoked"]],
                    purchases: 1))
                await second.stop()
            } catch {
                await second.stop()
                throw error
            }
        }
    }
}
