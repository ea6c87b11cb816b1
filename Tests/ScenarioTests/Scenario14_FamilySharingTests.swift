import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite("Family sharing") struct FamilySharingTests {
    @Test("14. Family-shared purchase → entitled as family-shared; REVOKE → gone for that member only")
    func revokeRemovesOnlyTheMembersShare() async throws {
        try await Scenario.run { scenario in
            let server = scenario.server
            try await scenario.accounts("X", "Y")
            // X (the organizer) bought it; Y (a family member) gets its own family-shared transaction.
            let own = TestPurchase.buy(TestCatalog.lifetime, on: server)
            let shared = TestPurchase.buy(TestCatalog.lifetime, on: server, ownership: .familyShared)
            let familyPremium = ExpectedEntitlement("premium", product: TestCatalog.lifetime, ownership: .familyShared)
            let sharing = Expectation(
                devices: ["A": ["premium"], "B": [familyPremium]], accounts: ["X": ["premium"], "Y": [familyPremium]],
                owners: [own.record.originalTransactionId: "X", shared.record.originalTransactionId: "Y"], purchases: 2)
            let revoked = Expectation(
                devices: ["A": ["premium"], "B": []], accounts: ["X": ["premium"], "Y": []],
                events: [
                    own.record.originalTransactionId: ["purchaseClaimed"],
                    shared.record.originalTransactionId: ["purchaseClaimed", "revoked"],
                ])

            let a = try await scenario.device("A", signedInTo: "X")
            let b = try await scenario.device("B", signedInTo: "Y")
            _ = try await a.client.record(signedTransaction: own.jws)
            _ = try await b.client.record(signedTransaction: shared.jws)
            try await scenario.check(sharing)

            server.clock.advance(by: 3600)
            try await scenario.notify(.revoke, transaction: shared.refunded(at: server.clock.now(), on: server).record)
            _ = try await a.client.refresh()
            _ = try await b.client.refresh()
            try await scenario.check(revoked)
        }
    }
}
