import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Transactions StoreKit verified that the server refuses: for good when its policy refuses
/// their environment (finished, reported once), and as a possible misconfiguration when they do
/// not verify (left for StoreKit's next delivery, still reported once).
@Suite struct RefusedPurchaseTests {
    /// A Production server that refuses Sandbox purchases (App Review, TestFlight).
    static let refusingSandbox: @Sendable (inout ServerConfiguration) -> Void = { settings in
        settings.environment = .production
        settings.sandboxInProduction = .refuse
    }

    @Test func purchaseTheServerRefusesForItsEnvironmentIsFinishedAndReportedOnce() async throws {
        try await withLiveServer(configure: Self.refusingSandbox) { server in
            let (phone, _) = try await PurchasingDevice.signedUp(on: server)

            let outcome = await phone.purchases.purchase(TestCatalog.lifetime)
            let transactionId = try #require(phone.appStore.finishedTransactionIds.first, "finished: no later delivery can change the answer")
            #expect(phone.appStore.unfinishedTransactionIds.isEmpty)
            guard case .invalidInput(let problem)? = outcome.rejection else {
                Issue.record("expected a purchase rejected and finished, got \(outcome)")
                return
            }
            #expect(problem.problemType == .environmentRefused)
            let rejected = await phone.client.rejectedUploads
            #expect(rejected.map(\.transactionId) == [transactionId])
            #expect(rejected.first?.problemType == ProblemType.environmentRefused.uri)
            #expect(rejected.first?.reason.contains("STORESYNC_SANDBOX_IN_PRODUCTION=refuse") == true)
            #expect(await phone.client.pendingUploads == 0)

            let relaunched = await phone.relaunched(on: server)
            await relaunched.purchases.start()
            #expect(relaunched.transport.requests(to: "/v1/transactions") == 1, "not delivered, nor uploaded, again")
            #expect(await relaunched.client.rejectedUploads.count == 1)
            await relaunched.purchases.stop()
        }
    }

    /// Xcode and StoreKit Testing purchases reach a real server signed by the developer's Mac.
    @Test(arguments: [AppStoreEnvironment.xcode, .localTesting])
    func xcodePurchaseDeliveredToARealServerIsFinishedAndItsRestoreVerdictUnchanged(
        environment: AppStoreEnvironment
    ) async throws {
        try await withLiveServer(configure: { $0.environment = .production }) { server in
            let (phone, _) = try await PurchasingDevice.signedUp(on: server)
            var updates = phone.purchases.transactionUpdates.makeAsyncIterator()
            let xcode = AppStoreTestSigner(pki: try TestPKI.make(name: "Xcode"))
            var record = TestPurchase.buy(TestCatalog.lifetime, on: server).record
            record.environment = environment
            let bought = TestPurchase(record: record, jws: xcode.signTransaction(record))

            phone.appStore.deliver(bought)
            let update = try #require(await updates.next())
            guard case .failure(.invalidInput(let problem)) = update.result else {
                Issue.record("expected the server to refuse it, got \(update.result)")
                return
            }
            #expect(problem.problemType == .environmentRefused)
            #expect(update.isFinished)
            #expect(phone.appStore.unfinishedTransactionIds.isEmpty)
            #expect(await phone.client.rejectedUploads.map(\.transactionId) == [record.transactionId])

            // Restore Purchases presents what StoreKit lists: the entry's verdict is `rejected`.
            phone.appStore.own(bought)
            let restored = try await phone.purchases.restorePurchases()
            #expect(restored.verdicts.map(\.verdict) == [.rejected])
            #expect(restored.droppedTransactionIds == [record.transactionId])
            #expect(await phone.client.rejectedUploads.count == 1)
            await phone.purchases.stop()
        }
    }

    @Test func transactionRefusedAgainAtEveryLaunchIsReportedOnce() async throws {
        try await withLiveServer { server in
            let (phone, _) = try await PurchasingDevice.signedUp(on: server)
            let forger = AppStoreTestSigner(pki: try TestPKI.make(name: "Forger"))
            var forged = TestPurchase.buy(TestCatalog.lifetime, on: server)
            forged.jws = forger.signTransaction(forged.record)
            var updates = phone.purchases.transactionUpdates.makeAsyncIterator()
            phone.appStore.deliver(forged, verifiedByStoreKit: true)
            #expect(try #require(await updates.next()).isFinished == false, "StoreKit vouches for it: delivered again")

            let relaunched = await phone.relaunched(on: server)
            var again = relaunched.purchases.transactionUpdates.makeAsyncIterator()
            await relaunched.purchases.start()
            #expect(try #require(await again.next()).isFinished == false)
            #expect(relaunched.transport.requests(to: "/v1/transactions") == 2)
            #expect(await relaunched.client.rejectedUploads.map(\.transactionId) == [forged.record.transactionId])
            await relaunched.purchases.stop()
        }
    }
}
