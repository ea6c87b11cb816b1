import Foundation
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

/// Purchases the customer starts on the App Store (a promoted product, a win-back offer): the
/// coordinator listens from launch, keeps them until the app takes them from
/// `purchaseIntents`, and buys them like any purchase, with the offer the customer chose.
@Suite struct PurchaseIntentTests {
    @Test func intentThatLaunchedTheAppWaitsForTheAppAndIsBoughtForTheAccount() async throws {
        try await withLiveServer { server in
            let phone = PurchasingDevice(server: server)
            // The customer taps the promoted product; StoreKit launches the app with it.
            phone.appStore.startOnAppStore(.init(product: TestCatalog.lifetime))
            await phone.purchases.start()
            let session = try await phone.purchases.signUp(email: TestAccount.email(), password: TestAccount.password)

            // The app takes it once onboarding is done.
            var intents = phone.purchases.purchaseIntents.makeAsyncIterator()
            let intent = try #require(await intents.next())
            #expect(intent.product == TestCatalog.lifetime)
            let outcome = await phone.purchases.purchase(intent: intent)

            #expect(outcome.recorded?.verdict == .accepted)
            #expect(outcome.entitlements?.grants("premium") == true)
            #expect(phone.appStore.appAccountTokens == [session.appAccountToken])
            #expect(phone.appStore.redeemedOffers == [nil])
            #expect(phone.appStore.unfinishedTransactionIds.isEmpty)
            let transactionId = try #require(phone.appStore.finishedTransactionIds.first)
            let purchase = try #require(phone.appStore.purchase(withId: transactionId))
            #expect(try await server.owner(of: purchase.record.originalTransactionId) == session.accountId)
            await phone.purchases.stop()
        }
    }

    @Test func winBackOfferIsBoughtWithTheOfferTheCustomerRedeemed() async throws {
        try await withLiveServer { server in
            let (phone, _) = try await PurchasingDevice.signedUp(on: server)

            phone.appStore.startOnAppStore(.init(product: TestCatalog.monthly, offer: "winback.3months.half"))
            var intents = phone.purchases.purchaseIntents.makeAsyncIterator()
            let intent = try #require(await intents.next())
            let outcome = await phone.purchases.purchase(intent: intent)

            #expect(outcome.recorded?.verdict == .accepted)
            #expect(phone.appStore.redeemedOffers == ["winback.3months.half"])
            await phone.purchases.stop()
        }
    }

    @Test func intentBoughtSignedOutIsStoredUntilSignInAndClaimedThen() async throws {
        try await withLiveServer { server in
            let phone = PurchasingDevice(server: server)
            await phone.purchases.start()
            phone.appStore.startOnAppStore(.init(product: TestCatalog.lifetime))

            var intents = phone.purchases.purchaseIntents.makeAsyncIterator()
            let intent = try #require(await intents.next())
            let outcome = await phone.purchases.purchase(intent: intent)
            #expect(outcome.recorded == .storedUntilSignIn)
            #expect(phone.appStore.appAccountTokens == [nil])
            #expect(phone.appStore.finishedTransactionIds.count == 1)

            try await phone.purchases.signUp(email: TestAccount.email(), password: TestAccount.password)
            #expect(await phone.client.isEntitled(to: "premium"))
            await phone.purchases.stop()
        }
    }

    @Test func cancelledIntentBuysNothingAndStartingTwiceDeliversEachIntentOnce() async throws {
        try await withLiveServer { server in
            let (phone, _) = try await PurchasingDevice.signedUp(on: server)
            await phone.purchases.start()  // again: nothing more listens

            phone.appStore.startOnAppStore(.init(product: TestCatalog.lifetime))
            phone.appStore.startOnAppStore(.init(product: TestCatalog.seasonPass))
            var intents = phone.purchases.purchaseIntents.makeAsyncIterator()
            let first = try #require(await intents.next())
            let second = try #require(await intents.next())
            #expect([first.product, second.product] == [TestCatalog.lifetime, TestCatalog.seasonPass])

            phone.appStore.nextSheet = .cancel
            #expect(await phone.purchases.purchase(intent: first).isCancelled)
            #expect(phone.transport.requests(to: "/v1/transactions") == 0)
            #expect(phone.appStore.finishedTransactionIds.isEmpty)
            #expect(await phone.purchases.purchase(intent: second).recorded?.verdict == .accepted)
            await phone.purchases.stop()
        }
    }

    @Test func intentsStartedWhileStoppedWaitForTheNextStart() async throws {
        try await withLiveServer { server in
            let (phone, _) = try await PurchasingDevice.signedUp(on: server)
            await phone.purchases.stop()

            phone.appStore.startOnAppStore(.init(product: TestCatalog.lifetime))
            let relaunched = await phone.relaunched(on: server)
            await relaunched.purchases.start()
            var intents = relaunched.purchases.purchaseIntents.makeAsyncIterator()
            let intent = try #require(await intents.next())
            #expect(intent.product == TestCatalog.lifetime)
            #expect(await relaunched.purchases.purchase(intent: intent).recorded?.verdict == .accepted)
            await relaunched.purchases.stop()
        }
    }
}
