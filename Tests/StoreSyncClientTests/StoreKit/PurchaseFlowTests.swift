import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

/// `PurchaseCoordinator.purchase(_:)`: the account's token goes to StoreKit, and the
/// transaction is finished only once it cannot be lost.
@Suite struct PurchaseFlowTests {
    @Test func purchaseCarriesTheAccountTokenAndIsFinishedOnlyAfterTheServerAcknowledgedIt() async throws {
        try await withLiveServer { server in
            let (phone, session) = try await PurchasingDevice.signedUp(on: server)

            let gate = phone.transport.holdNextResponse(to: "/v1/transactions")
            let buying = Task { await phone.purchases.purchase(TestCatalog.lifetime) }
            await gate.responseArrived.wait()
            #expect(phone.appStore.finishedTransactionIds.isEmpty, "not finished while the upload is unanswered")
            #expect(phone.appStore.unfinishedTransactionIds.count == 1)
            await gate.release.open()
            let outcome = await buying.value

            #expect(outcome.recorded?.verdict == .accepted)
            #expect(outcome.entitlements?.grants("premium") == true)
            #expect(phone.appStore.appAccountTokens == [session.appAccountToken])
            #expect(phone.appStore.unfinishedTransactionIds.isEmpty)
            let transactionId = try #require(phone.appStore.finishedTransactionIds.first)
            let purchase = try #require(phone.appStore.purchase(withId: transactionId))
            #expect(purchase.record.appAccountToken == session.appAccountToken)
            #expect(try await server.owner(of: purchase.record.originalTransactionId) == session.accountId)
            await phone.purchases.stop()
        }
    }

    @Test func cancelledPurchaseRecordsAndFinishesNothing() async throws {
        try await withLiveServer { server in
            let (phone, _) = try await PurchasingDevice.signedUp(on: server)
            phone.appStore.nextSheet = .cancel

            #expect(await phone.purchases.purchase(TestCatalog.lifetime).isCancelled)
            #expect(phone.transport.requests(to: "/v1/transactions") == 0)
            #expect(phone.appStore.finishedTransactionIds.isEmpty)
            #expect(await phone.client.isEntitled(to: "premium") == false)
            await phone.purchases.stop()
        }
    }

    @Test func storeKitFailureIsReportedAndChangesNothing() async throws {
        struct PaymentDeclined: Error {}
        try await withLiveServer { server in
            let (phone, _) = try await PurchasingDevice.signedUp(on: server)
            phone.appStore.nextSheet = .fail(PaymentDeclined())

            #expect(await phone.purchases.purchase(TestCatalog.lifetime).failure is PaymentDeclined)
            #expect(phone.transport.requests(to: "/v1/transactions") == 0)
            #expect(await phone.client.pendingUploads == 0)
            await phone.purchases.stop()
        }
    }

    @Test func offlinePurchaseIsFinishedOnceQueuedAndUploadedWhenTheNetworkReturns() async throws {
        try await withLiveServer { server in
            let (phone, _) = try await PurchasingDevice.signedUp(on: server)

            phone.transport.isOffline = true
            let outcome = await phone.purchases.purchase(TestCatalog.lifetime)
            #expect(outcome.recorded == .queued)
            #expect(outcome.entitlements?.grants("premium") == false, "granted only once the server verified it")
            #expect(phone.appStore.finishedTransactionIds.count == 1, "durably in the outbox: safe to finish")
            #expect(await phone.client.pendingUploads == 1)

            phone.transport.isOffline = false
            #expect(await phone.client.flush().uploaded == 1)
            #expect(await phone.client.isEntitled(to: "premium"))
            #expect(phone.transport.requests(to: "/v1/transactions") == 1)
            await phone.purchases.stop()
        }
    }

    @Test func purchaseThatCannotBeStoredIsLeftUnfinishedAndRecordedAtTheNextLaunch() async throws {
        try await withLiveServer { server in
            let cache = OutboxFailingStore()
            let (phone, _) = try await PurchasingDevice.signedUp(on: server, device: TestDevice(server: server, store: cache))

            cache.failsOutboxWrites = true
            let outcome = await phone.purchases.purchase(TestCatalog.lifetime)
            guard case StoreSyncClientError.storage? = outcome.failure as? StoreSyncClientError else {
                Issue.record("expected a storage failure, got \(outcome)")
                return
            }
            #expect(phone.appStore.finishedTransactionIds.isEmpty)
            #expect(phone.appStore.unfinishedTransactionIds.count == 1)
            #expect(phone.transport.requests(to: "/v1/transactions") == 0, "nothing is sent that is not queued")

            cache.failsOutboxWrites = false
            let relaunched = await phone.relaunched(on: server)
            var updates = relaunched.purchases.transactionUpdates.makeAsyncIterator()
            await relaunched.purchases.start()
            let update = try #require(await updates.next())
            #expect(try update.result.get().verdict == .accepted)
            #expect(update.isFinished)
            #expect(update.entitlements.grants("premium"))
            #expect(relaunched.appStore.unfinishedTransactionIds.isEmpty)
            await relaunched.purchases.stop()
        }
    }

    @Test(arguments: [false, true])
    func forgedPurchaseIsReportedAsFinishedOnlyWhenItWas(verifiedByStoreKit: Bool) async throws {
        try await withLiveServer { server in
            let (phone, _) = try await PurchasingDevice.signedUp(on: server)
            let forger = AppStoreTestSigner(pki: try TestPKI.make(name: "Forger"))
            var forged = TestPurchase.buy(TestCatalog.lifetime, on: server)
            forged.jws = forger.signTransaction(forged.record)

            let outcome = await phone.purchases.complete(.purchased(.init(forged, verifiedByStoreKit: verifiedByStoreKit)))
            let finished = phone.appStore.finishedTransactionIds == [forged.record.transactionId]
            #expect(finished == !verifiedByStoreKit)
            if verifiedByStoreKit {
                #expect(outcome.failure != nil, "left unfinished: StoreKit delivers it again")
            } else {
                guard case .rejected(.invalidInput(let problem)) = outcome else {
                    Issue.record("expected a purchase rejected and finished, got \(outcome)")
                    return
                }
                #expect(problem.problemType == .invalidSignedData)
            }
            await phone.purchases.stop()
        }
    }

    @Test func purchaseOwnedByTheAccountItsTokenNamesIsReportedAsFinished() async throws {
        try await withLiveServer { server in
            // The user switched accounts while the purchase sheet was up: the token names the first.
            let first = try await server.signUp()
            let (phone, _) = try await PurchasingDevice.signedUp(on: server)
            let bought = TestPurchase.buy(TestCatalog.lifetime, on: server, token: first.appAccountToken)

            let outcome = await phone.purchases.complete(.purchased(.init(bought)))
            guard case .rejected(.ownedByOtherAccount) = outcome else {
                Issue.record("expected a purchase rejected and finished, got \(outcome)")
                return
            }
            #expect(phone.appStore.finishedTransactionIds == [bought.record.transactionId])
            #expect(try await server.owner(of: bought.record.originalTransactionId) == first.accountId)
            #expect(await phone.client.rejectedUploads.map(\.transactionId) == [bought.record.transactionId])
            await phone.purchases.stop()
        }
    }

    @Test func purchaseBeforeSignInIsKeptFinishedAndClaimedAtSignUp() async throws {
        try await withLiveServer { server in
            let phone = PurchasingDevice(server: server)
            await phone.purchases.start()

            let outcome = await phone.purchases.purchase(TestCatalog.lifetime)
            #expect(outcome.recorded == .storedUntilSignIn)
            #expect(phone.appStore.appAccountTokens == [nil], "no account, no token")
            #expect(phone.appStore.finishedTransactionIds.count == 1)

            try await phone.purchases.signUp(email: TestAccount.email(), password: TestAccount.password)
            #expect(await phone.client.unclaimedPurchases == 0)
            #expect(await phone.client.isEntitled(to: "premium"))
            await phone.purchases.stop()
        }
    }
}

/// An in-memory cache whose outbox writes fail on demand, as a full disk would.
final class OutboxFailingStore: KeyValueStore, @unchecked Sendable {  // `failing` is only touched under `lock`.
    struct DiskFull: Error {}
    private let base = InMemoryStore()
    private let lock = NSLock()
    private var failing = false

    /// While `true`, writes to any partition's outbox throw.
    var failsOutboxWrites: Bool {
        get { lock.withLock { failing } }
        set { lock.withLock { failing = newValue } }
    }

    func data(forKey key: String) -> Data? { base.data(forKey: key) }

    func set(_ data: Data?, forKey key: String) throws {
        if failsOutboxWrites, key.hasSuffix(".outbox") { throw DiskFull() }
        base.set(data, forKey: key)
    }

    func keys(withPrefix prefix: String) -> [String] { base.keys(withPrefix: prefix) }
}
