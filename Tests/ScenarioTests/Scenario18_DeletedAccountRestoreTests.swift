import AppStorePayloads
import Foundation
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// A user deletes their account in the app (App Store guideline 5.1.1(v)), then creates a new
/// one on the same phone. StoreKit still holds the purchase, bound to the old account's
/// appAccountToken; the deletion released it, so the new account restores it under any policy.
@Suite("Deleting an account") struct DeletedAccountRestoreTests {
    @Test(
        "18. A deleted account's purchase is restored by a new account on the same phone",
        arguments: TransferPolicy.allCases)
    func aDeletedAccountsPurchaseIsRestoredByANewAccount(policy: TransferPolicy) async throws {
        try await Scenario.run(configure: { $0.transferPolicy = policy }) { scenario in
            try await scenario.accounts("Old")
            let bought = TestPurchase.buy(TestCatalog.lifetime, on: scenario.server, token: scenario.account("Old").appAccountToken)
            let purchase = bought.record.originalTransactionId
            let phone = try await scenario.device("Phone", signedInTo: "Old")
            _ = try await phone.client.record(signedTransaction: bought.jws)
            #expect(await phone.client.isEntitled(to: "premium"))

            try await phone.client.deleteAccount(password: TestAccount.password)
            #expect(await phone.client.session == nil)
            #expect(try phone.store.keys(withPrefix: "storesync.acct.").isEmpty, "the deleted account's cache is wiped")
            #expect(await phone.client.isEntitled(to: "premium") == false)

            try await scenario.accounts("New")
            try await phone.client.signIn(email: scenario.account("New").email, password: TestAccount.password)
            // StoreKit hands the app its current entitlements again; the app records them and the
            // user taps Restore Purchases.
            _ = try await phone.client.record(signedTransaction: bought.jws)
            let restored = try await phone.client.restore(userInitiated: true)

            #expect(restored.verdicts.map(\.verdict) == [.known])
            let old = scenario.account("Old").id
            #expect(try await scenario.server.rows(of: old).filter { $0.key != "events" }.values.allSatisfy { $0 == 0 })
            #expect(try await scenario.server.orphanRows() == 0)
            try await scenario.check(Expectation(
                devices: ["Phone": ["premium"]], accounts: ["New": ["premium"]], owners: [purchase: "New"],
                events: [purchase: ["purchaseClaimed", "purchaseReleased", "purchaseClaimed"]],
                holdings: ["New": [purchase]], purchases: 1))
        }
    }
}
