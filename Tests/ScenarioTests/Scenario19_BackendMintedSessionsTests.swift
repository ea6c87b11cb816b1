import AppStorePayloads
import Foundation
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// An app with its own user system: its backend binds its user id to a StoreSync account and
/// mints a session per device, which the app adopts — no second password. The two-device flow
/// is the same as with email and password.
@Suite("Bring your own identity") struct BackendMintedSessionsTests {
    @Test("19. Backend-minted sessions on two devices restore each other's purchases")
    func mintedSessionsRestoreEachOthersPurchases() async throws {
        try await Scenario.run { scenario in
            try await scenario.externalAccounts("U")
            let token = scenario.account("U").appAccountToken
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: scenario.server, token: token)
            let season = TestPurchase.buy(TestCatalog.seasonPass, on: scenario.server, token: token)
            let both: [ExpectedEntitlement] = ["premium", "season"]
            let purchases = [lifetime.record.originalTransactionId, season.record.originalTransactionId]
            let expected = Expectation(
                devices: ["A": both, "B": both], accounts: ["U": both],
                owners: [purchases[0]: "U", purchases[1]: "U"],
                events: [purchases[0]: ["purchaseClaimed"], purchases[1]: ["purchaseClaimed"]],
                holdings: ["U": Set(purchases)], purchases: 2)

            let a = try await scenario.device("A", adoptingSessionOf: "U")
            let b = try await scenario.device("B", adoptingSessionOf: "U")
            _ = try await a.client.record(signedTransaction: lifetime.jws)
            _ = try await b.client.record(signedTransaction: season.jws)
            let restoredOnA = try await a.client.restore(userInitiated: true)
            let restoredOnB = try await b.client.restore(userInitiated: true)

            #expect(Set(restoredOnA.entitlements.map(\.entitlementId)) == ["premium", "season"])
            #expect(Set(restoredOnB.entitlements.map(\.entitlementId)) == ["premium", "season"])
            #expect(await a.client.session?.email == nil)
            let lookup = try await scenario.server.send(
                "GET", "/v1/admin/users/\(scenario.account("U").externalUserId ?? "")/entitlements",
                token: scenario.server.adminKey)
            #expect(Set(try lookup.decode(Snapshot.self).entitlements.map(\.entitlementId)) == ["premium", "season"])
            try await scenario.check(expected)
        }
    }
}
