import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite("Refund while offline") struct RefundWhileOfflineTests {
    @Test("5. Refund via Server Notification while B is offline → B loses it on its next refresh; REFUND_REVERSED → back")
    func refundAndReversalReachTheDeviceThatWasOffline() async throws {
        try await Scenario.run { scenario in
            let server = scenario.server
            try await scenario.accounts("X")
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server)
            let purchase = lifetime.record.originalTransactionId
            let whileOffline = Expectation(devices: ["B": ["premium"]], accounts: ["X": []], behind: ["B"])
            let refunded = Expectation(devices: ["B": []], accounts: ["X": []], events: [purchase: ["purchaseClaimed", "revoked"]])
            let reversed = Expectation(
                devices: ["A": ["premium"], "B": ["premium"]], accounts: ["X": ["premium"]], owners: [purchase: "X"],
                events: [purchase: ["purchaseClaimed", "revoked", "revocationReversed"]], purchases: 1)

            let a = try await scenario.device("A", signedInTo: "X")
            _ = try await a.client.record(signedTransaction: lifetime.jws)
            let b = try await scenario.device("B", signedInTo: "X")
            b.transport.isOffline = true

            server.clock.advance(by: 3600)
            try await scenario.notify(.refund, transaction: lifetime.refunded(at: server.clock.now(), on: server).record)
            await #expect(throws: StoreSyncClientError.offline) { try await b.client.refresh() }
            try await scenario.check(whileOffline)

            b.transport.isOffline = false
            _ = try await b.client.refresh()
            try await scenario.check(refunded)

            server.clock.advance(by: 3600)
            try await scenario.notify(.refundReversed, transaction: lifetime.resigned(at: server.clock.now(), on: server).record)
            _ = try await a.client.refresh()
            _ = try await b.client.refresh()
            try await scenario.check(reversed)
        }
    }
}
