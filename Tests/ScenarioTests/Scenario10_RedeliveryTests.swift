import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite("Re-delivered transactions") struct RedeliveryTests {
    @Test("10. The same transaction delivered again and again (unfinished transaction re-delivered at each launch) → idempotent")
    func redeliveryAtEveryLaunchChangesNothing() async throws {
        try await Scenario.run { scenario in
            let server = scenario.server
            try await scenario.accounts("X")
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server)
            let purchase = lifetime.record.originalTransactionId
            let expected = Expectation(
                devices: ["A": ["premium"]], accounts: ["X": ["premium"]], owners: [purchase: "X"],
                events: [purchase: ["purchaseClaimed"]], holdings: ["X": [purchase]], purchases: 1)

            var a = try await scenario.device("A", signedInTo: "X")
            let first = try await a.client.record(signedTransaction: lifetime.jws)
            guard case .acknowledged(let accepted) = first else { throw TestServerError.unexpected("first delivery: \(first)") }
            #expect(accepted.verdict == .accepted)
            let versionAfterFirst = try await server.versions()[scenario.account("X").id]

            for launch in 2...6 {
                a = scenario.relaunch("A")
                let again = try await a.client.record(signedTransaction: lifetime.jws)
                guard case .acknowledged(let verdict) = again else {
                    throw TestServerError.unexpected("launch \(launch): \(again)")
                }
                #expect(verdict.verdict == .known, "launch \(launch)")
            }

            #expect(try await server.versions()[scenario.account("X").id] == versionAfterFirst)
            #expect(try await server.count("transactions") == 1)
            #expect(await a.client.pendingUploads == 0)
            try await scenario.check(expected)
        }
    }
}
