import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

/// Transactions StoreKit delivers outside a purchase call, through `Transaction.updates`.
@Suite struct TransactionUpdateTests {
    @Test func askToBuyIsPendingUntilApprovedThenRecordedAndFinished() async throws {
        try await withLiveServer { server in
            let (child, session) = try await PurchasingDevice.signedUp(on: server)
            var updates = child.purchases.transactionUpdates.makeAsyncIterator()

            child.appStore.nextSheet = .askToBuy
            #expect(await child.purchases.purchase(TestCatalog.lifetime).isPending)
            #expect(await child.client.isEntitled(to: "premium") == false)
            #expect(child.transport.requests(to: "/v1/transactions") == 0)

            let approved = try #require(child.appStore.approveAskToBuy())
            let update = try #require(await updates.next())
            #expect(update.transactionId == approved.record.transactionId)
            #expect(update.productId == TestCatalog.lifetime)
            #expect(try update.result.get().verdict == .accepted)
            #expect(update.isFinished)
            #expect(update.entitlements.grants("premium"))
            #expect(approved.record.appAccountToken == session.appAccountToken, "the token given at purchase time")
            #expect(child.appStore.finishedTransactionIds == [approved.record.transactionId])
            await child.purchases.stop()
        }
    }

    @Test func refundArrivingThroughUpdatesEndsTheEntitlement() async throws {
        try await withLiveServer { server in
            let (phone, _) = try await PurchasingDevice.signedUp(on: server)
            var updates = phone.purchases.transactionUpdates.makeAsyncIterator()
            let bought = await phone.purchases.purchase(TestCatalog.lifetime)
            #expect(bought.entitlements?.grants("premium") == true)
            let transactionId = try #require(phone.appStore.finishedTransactionIds.first)

            server.clock.advance(by: 3_600)
            phone.appStore.refund(transactionId)
            let update = try #require(await updates.next())
            #expect(update.transactionId == transactionId)
            #expect(try update.result.get().verdict == .accepted, "the refunded version is news to the server")
            #expect(update.isFinished)
            #expect(update.entitlements.grants("premium") == false)
            #expect(await phone.client.isEntitled(to: "premium") == false)
            await phone.purchases.stop()
        }
    }

    @Test func crashBetweenRecordAndFinishIsRecordedOnceAtTheNextLaunch() async throws {
        try await withLiveServer { server in
            let (phone, session) = try await PurchasingDevice.signedUp(on: server)
            phone.appStore.losesFinishes = true  // the app is killed right after recording
            let outcome = await phone.purchases.purchase(TestCatalog.lifetime)
            #expect(outcome.recorded?.verdict == .accepted)
            let transactionId = try #require(phone.appStore.unfinishedTransactionIds.first)
            let originalId = try #require(phone.appStore.purchase(withId: transactionId)).record.originalTransactionId
            let versionBefore = try await server.versions()[session.accountId]

            phone.appStore.losesFinishes = false
            let relaunched = await phone.relaunched(on: server)
            var updates = relaunched.purchases.transactionUpdates.makeAsyncIterator()
            await relaunched.purchases.start()
            let update = try #require(await updates.next())
            #expect(update.transactionId == transactionId)
            #expect(try update.result.get().verdict == .known, "the server already holds it")
            #expect(update.isFinished)
            #expect(relaunched.appStore.unfinishedTransactionIds.isEmpty)
            #expect(try await server.versions()[session.accountId] == versionBefore, "nothing applied twice")
            #expect(try await server.holders(of: originalId) == [session.accountId])
            #expect(try await server.count("transactions") == 1)
            await relaunched.purchases.stop()
        }
    }

    @Test(arguments: [false, true])
    func transactionTheServerRefusesIsFinishedOnlyWhenStoreKitDoubtsItToo(verifiedByStoreKit: Bool) async throws {
        try await withLiveServer { server in
            let (phone, _) = try await PurchasingDevice.signedUp(on: server)
            var updates = phone.purchases.transactionUpdates.makeAsyncIterator()
            let forger = AppStoreTestSigner(pki: try TestPKI.make(name: "Forger"))
            var forged = TestPurchase.buy(TestCatalog.lifetime, on: server)
            forged.jws = forger.signTransaction(forged.record)

            phone.appStore.deliver(forged, verifiedByStoreKit: verifiedByStoreKit)
            let update = try #require(await updates.next())
            guard case .failure(.invalidInput(let problem)) = update.result else {
                Issue.record("expected the server to refuse the forgery, got \(update.result)")
                return
            }
            #expect(problem.problemType == .invalidSignedData)
            #expect(update.isFinished == !verifiedByStoreKit)
            #expect(phone.appStore.unfinishedTransactionIds == (verifiedByStoreKit ? [forged.record.transactionId] : []))
            #expect(update.entitlements.grants("premium") == false)
            await phone.purchases.stop()
        }
    }

    @Test func purchaseMadeOnAnotherDeviceArrivesAndIsRecorded() async throws {
        try await withLiveServer { server in
            let (phone, session) = try await PurchasingDevice.signedUp(on: server)
            var updates = phone.purchases.transactionUpdates.makeAsyncIterator()

            // Bought on the user's Mac with the same account: StoreKit syncs it here.
            let fromMac = TestPurchase.buy(TestCatalog.seasonPass, on: server, token: session.appAccountToken)
            phone.appStore.deliver(fromMac)
            let update = try #require(await updates.next())
            #expect(try update.result.get().verdict == .accepted)
            #expect(update.entitlements.grants("season"))
            await phone.purchases.stop()
        }
    }
}
