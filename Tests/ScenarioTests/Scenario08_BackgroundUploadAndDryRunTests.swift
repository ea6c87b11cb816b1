import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite("Background upload and dry run") struct BackgroundUploadAndDryRunTests {
    @Test("8. Background upload by Y never moves X's purchase; dry-run restore reports what a real one would do and changes nothing")
    func backgroundNeverMovesAndDryRunChangesNothing() async throws {
        try await Scenario.run(configure: { $0.transferPolicy = .transfer }) { scenario in
            let server = scenario.server
            try await scenario.accounts("X", "Y")
            let bought = TestPurchase.buy(TestCatalog.lifetime, on: server)
            let purchase = bought.record.originalTransactionId
            let staysWithX = Expectation(
                devices: ["A": ["premium"], "B": []], accounts: ["X": ["premium"], "Y": []], owners: [purchase: "X"],
                events: [purchase: ["purchaseClaimed"]], holdings: ["X": [purchase], "Y": []], purchases: 1)
            let movedToY = Expectation(
                devices: ["A": [], "B": ["premium"]], accounts: ["X": [], "Y": ["premium"]], owners: [purchase: "Y"],
                events: [purchase: ["purchaseClaimed", "ownershipTransferred", "ownershipTransferred"]],
                holdings: ["X": [], "Y": [purchase]], purchases: 1)

            let a = try await scenario.device("A", signedInTo: "X")
            let bStore = InMemoryStore()
            let b = try await scenario.device("B", signedInTo: "Y", store: bStore)
            _ = try await a.client.record(signedTransaction: bought.jws)
            await #expect(throws: StoreSyncClientError.self) { try await b.client.record(signedTransaction: bought.jws) }
            let background = try await b.client.restore(userInitiated: false)
            #expect(background.verdicts.map(\.verdict) == [.ownedByOtherAccount])
            try await scenario.check(staysWithX)

            let rowsBefore = try await server.tableCounts()
            let versionsBefore = try await server.versions()
            let deviceBefore = bStore.contents
            let dryRun = try await b.client.restore(userInitiated: true, dryRun: true)
            #expect(dryRun.isDryRun)
            #expect(dryRun.transfers.map(\.originalTransactionId) == [purchase], "it reports the move a real restore makes")
            #expect(dryRun.entitlements.map(\.entitlementId) == ["premium"])
            #expect(try await server.tableCounts() == rowsBefore)
            #expect(try await server.versions() == versionsBefore)
            #expect(bStore.contents == deviceBefore, "a dry run writes nothing on the device either")
            try await scenario.check(staysWithX)

            let real = try await b.client.restore(userInitiated: true)
            #expect(real.verdicts == dryRun.verdicts)
            #expect(real.entitlements == dryRun.entitlements)
            #expect(real.snapshot.version == dryRun.snapshot.version)
            _ = try await a.client.refresh()
            try await scenario.check(movedToY)
        }
    }
}
