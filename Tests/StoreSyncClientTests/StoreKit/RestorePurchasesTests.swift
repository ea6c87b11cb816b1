import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

/// The Restore Purchases button: `AppStore.sync()`, then a restore the user asked for.
@Suite struct RestorePurchasesTests {
    @Test func restorePurchasesSyncsStoreKitThenMovesThePurchaseAsTheUserAsked() async throws {
        try await withLiveServer { server in
            // One Apple ID; a purchase made without a token, recorded by a first app account.
            let appleID = SimulatedStoreKit(server: server)
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server)
            let first = PurchasingDevice(server: server, appStore: appleID)
            let firstSession = try await first.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            _ = try await first.client.record(signedTransaction: lifetime.jws)
            appleID.own(lifetime)

            // A second app account on another device with the same Apple ID.
            let second = PurchasingDevice(server: server, appStore: appleID)
            await second.purchases.start()
            let secondSession = try await second.purchases.signUp(email: TestAccount.email(), password: TestAccount.password)
            #expect(await second.client.isEntitled(to: "premium") == false, "an import never moves a purchase")

            let restored = try await second.purchases.restorePurchases()
            #expect(appleID.syncCount == 1)
            #expect(restored.transfers.map(\.originalTransactionId) == [lifetime.record.originalTransactionId])
            #expect(await second.client.isEntitled(to: "premium"))
            let body = try #require(second.transport.jsonBodies(sentTo: "/v1/restore").last)
            #expect(body["userInitiated"] as? Bool == true)
            #expect(try await server.owner(of: lifetime.record.originalTransactionId) == secondSession.accountId)
            #expect(firstSession.accountId != secondSession.accountId)
            await second.purchases.stop()
        }
    }

    @Test func cancelledAppleIDPromptRestoresNothing() async throws {
        struct UserCancelled: Error {}
        try await withLiveServer { server in
            let (phone, _) = try await PurchasingDevice.signedUp(on: server)
            phone.appStore.syncError = UserCancelled()

            await #expect(throws: UserCancelled.self) { try await phone.purchases.restorePurchases() }
            #expect(phone.transport.requests(to: "/v1/restore") == 0)
            await phone.purchases.stop()
        }
    }

    @Test func restorePurchasesSignedOutAsksNothingOfTheUser() async throws {
        try await withLiveServer { server in
            let phone = PurchasingDevice(server: server)
            await #expect(throws: StoreSyncClientError.notSignedIn) { try await phone.purchases.restorePurchases() }
            #expect(phone.appStore.syncCount == 0)
        }
    }
}
