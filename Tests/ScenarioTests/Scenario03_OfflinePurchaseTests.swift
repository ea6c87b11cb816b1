import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite("Offline purchase") struct OfflinePurchaseTests {
    @Test("3. A buys offline; B restores (not there yet); A reconnects; B refreshes → entitled")
    func offlinePurchaseReachesTheOtherDeviceAfterReconnecting() async throws {
        try await Scenario.run { scenario in
            try await scenario.accounts("X")
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: scenario.server)
            let purchase = lifetime.record.originalTransactionId
            let notYet = Expectation(devices: ["B": []], accounts: ["X": []], owners: [purchase: nil], purchases: 0)
            let converged = Expectation(
                devices: ["A": ["premium"], "B": ["premium"]], accounts: ["X": ["premium"]], owners: [purchase: "X"],
                events: [purchase: ["purchaseClaimed"]], holdings: ["X": [purchase]], purchases: 1)

            let a = try await scenario.device("A", signedInTo: "X")
            let b = try await scenario.device("B", signedInTo: "X")
            a.transport.isOffline = true
            #expect(try await a.client.record(signedTransaction: lifetime.jws) == .queued)
            _ = try await b.client.restore()
            try await scenario.check(notYet)

            a.transport.isOffline = false
            #expect(await a.client.flush() == FlushOutcome(uploaded: 1))
            _ = try await b.client.refresh()
            try await scenario.check(converged)
        }
    }
}
