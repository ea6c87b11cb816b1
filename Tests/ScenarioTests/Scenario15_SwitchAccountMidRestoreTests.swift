import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite("Switching accounts mid-restore") struct SwitchAccountMidRestoreTests {
    @Test("15. Sign out of X and into Y on one device mid-restore → nothing of X's lands in Y's cache")
    func answerForXNeverLandsInY() async throws {
        try await Scenario.run { scenario in
            let server = scenario.server
            try await scenario.accounts("X", "Y")
            let xLifetime = TestPurchase.buy(TestCatalog.lifetime, on: server)
            let ySeason = TestPurchase.buy(TestCatalog.seasonPass, on: server)
            let expected = Expectation(
                devices: ["D": ["season"], "E": ["season"]], accounts: ["X": ["premium"], "Y": ["season"]],
                owners: [xLifetime.record.originalTransactionId: "X", ySeason.record.originalTransactionId: "Y"],
                holdings: ["X": [xLifetime.record.originalTransactionId], "Y": [ySeason.record.originalTransactionId]],
                purchases: 2)

            let e = try await scenario.device("E", signedInTo: "Y")
            _ = try await e.client.record(signedTransaction: ySeason.jws)
            let store = InMemoryStore()
            let d = try await scenario.device("D", signedInTo: "X", store: store)
            _ = try await d.client.record(signedTransaction: xLifetime.jws)

            // The server has answered X's restore; before the device hears it, the user switches to Y.
            let gate = d.transport.holdNextResponse(to: "/v1/restore")
            let restoring = Task { try await d.client.restore() }
            await gate.responseArrived.wait()
            try await d.client.signOut()
            try await d.client.signIn(email: scenario.account("Y").email, password: TestAccount.password)
            await gate.release.open()

            await #expect(throws: StoreSyncClientError.sessionChanged) { try await restoring.value }
            let yPrefix = "storesync.acct.\(scenario.account("Y").id.uuidString.lowercased())."
            let yKeys = store.contents.filter { $0.key.hasPrefix(yPrefix) }
            #expect(!yKeys.isEmpty, "Y's snapshot is cached")
            for (key, value) in yKeys {
                let text = String(decoding: value, as: UTF8.self)
                #expect(!text.contains(xLifetime.record.transactionId), "\(key) holds X's purchase")
                #expect(!text.contains(scenario.account("X").id.uuidString.lowercased()), "\(key) names X")
            }
            try await scenario.check(expected)
        }
    }
}
