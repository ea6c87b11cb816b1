import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Synchronization
import Testing

@Suite struct OutboxTests {
    @Test func purchaseMadeOfflineReachesTheServerAfterReconnect() async throws {
        try await withLiveServer { server in
            let email = TestAccount.email()
            let phone = TestDevice(server: server)
            try await phone.client.signUp(email: email, password: TestAccount.password)
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server)

            phone.transport.isOffline = true
            #expect(try await phone.client.record(signedTransaction: lifetime.jws) == .queued)
            #expect(await phone.client.pendingUploads == 1)
            #expect(await phone.client.isEntitled(to: "premium") == false, "nothing is granted before the server verified it")

            phone.transport.isOffline = false
            let flushed = await phone.client.flush()
            #expect(flushed == FlushOutcome(uploaded: 1, rejected: 0, pending: 0))
            #expect(await phone.client.pendingUploads == 0)
            #expect(await phone.client.isEntitled(to: "premium"))

            let tablet = TestDevice(server: server)
            try await tablet.client.signIn(email: email, password: TestAccount.password)
            #expect(try await tablet.client.restore().entitlements.map(\.productId) == [TestCatalog.lifetime])
        }
    }

    @Test func failedUploadsBackOffExponentiallyAndAreRetriedByTheNextCallOnceDue() async throws {
        try await withLiveServer { server in
            let phone = TestDevice(server: server)
            try await phone.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            phone.transport.isOffline = true
            _ = try await phone.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)
            let account = try #require(await phone.client.session).accountId
            let firstTry = try #require(await phone.client.outbox(in: .account(account)).first)
            #expect(firstTry.attempts == 1)
            #expect(firstTry.nextAttemptAt == server.clock.now().addingTimeInterval(2))

            await phone.client.flush()
            let secondTry = try #require(await phone.client.outbox(in: .account(account)).first)
            #expect(secondTry.attempts == 2)
            #expect(secondTry.nextAttemptAt == server.clock.now().addingTimeInterval(4))

            // Online again, but the entry is not due yet: an ordinary call leaves it alone.
            phone.transport.isOffline = false
            _ = try await phone.client.refresh()
            #expect(phone.transport.requests(to: "/v1/transactions") == 0)
            #expect(await phone.client.pendingUploads == 1)

            server.clock.advance(by: 4)
            _ = try await phone.client.refresh()
            #expect(phone.transport.requests(to: "/v1/transactions") == 1)
            #expect(await phone.client.pendingUploads == 0)
            #expect(await phone.client.isEntitled(to: "premium"))
        }
    }

    /// The purchase just made is answered before the backlog is uploaded: a slow or stalled
    /// upload of an older purchase never keeps the user waiting for this one.
    @Test func aPurchaseIsAnsweredWithoutWaitingForTheBacklog() async throws {
        try await withLiveServer { server in
            let phone = TestDevice(server: server)
            try await phone.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            let older = TestPurchase.buy(TestCatalog.seasonPass, on: server)
            phone.transport.isOffline = true
            #expect(try await phone.client.record(signedTransaction: older.jws) == .queued)
            phone.transport.isOffline = false
            server.clock.advance(by: 2)  // the backlog's first backoff has run out

            let backlog = phone.transport.holdNextResponse(to: "/v1/transactions") { request in
                String(decoding: request.body ?? Data(), as: UTF8.self).contains(older.jws)
            }
            let answered = ManagedFlag()
            let purchase = Task {
                let outcome = try await phone.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)
                answered.set()
                return outcome
            }
            await backlog.responseArrived.wait()
            let answeredWhileHeld = try await eventually(within: .seconds(60)) { answered.isSet }
            await backlog.release.open()
            #expect(answeredWhileHeld, "record() waited for the backlog's upload")
            guard case .acknowledged = try await purchase.value else {
                Issue.record("the new purchase was not acknowledged")
                return
            }
            let drained = try await eventually { await phone.client.pendingUploads == 0 }
            #expect(drained, "the backlog is still uploaded")
            #expect(await phone.client.isEntitled(to: "season"))
        }
    }

    @Test func restartWithAPendingOutboxUploadsEachPurchaseOnce() async throws {
        try await withLiveServer { server in
            let directory = TestDirectory.make()
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server)
            let season = TestPurchase.buy(TestCatalog.seasonPass, on: server)
            do {
                let beforeRestart = TestDevice.onDisk(server: server, directory: directory)
                try await beforeRestart.client.signUp(email: TestAccount.email(), password: TestAccount.password)
                beforeRestart.transport.isOffline = true
                #expect(try await beforeRestart.client.record(signedTransaction: lifetime.jws) == .queued)
                #expect(try await beforeRestart.client.record(signedTransaction: season.jws) == .queued)
                // StoreKit re-delivers an unfinished transaction: the same JWS is not queued twice.
                #expect(try await beforeRestart.client.record(signedTransaction: season.jws) == .queued)
                #expect(await beforeRestart.client.pendingUploads == 2)
            }

            let afterRestart = TestDevice.onDisk(server: server, directory: directory)
            #expect(await afterRestart.client.session != nil, "the session survives the restart")
            #expect(await afterRestart.client.pendingUploads == 2)
            let flushed = await afterRestart.client.flush()
            #expect(flushed.uploaded == 2)
            #expect(afterRestart.transport.requests(to: "/v1/transactions") == 2)
            let status = await afterRestart.client.entitlements()
            #expect(Set(status.entitlements.map(\.entitlementId)) == ["premium", "season"])

            let accountId = try #require(await afterRestart.client.session).accountId
            let lookup = try await server.send("GET", "/v1/admin/accounts/\(accountId)/entitlements", token: server.adminKey)
            let snapshot = try lookup.decode(Snapshot.self)
            #expect(snapshot.transactions.map(\.transactionId).sorted()
                == [lifetime.record.transactionId, season.record.transactionId].sorted())
            #expect(snapshot.version == 3, "created at 1, then one change per purchase: nothing applied twice")
        }
    }

    @Test func uploadTheServerRefusesIsDroppedWithItsReason() async throws {
        try await withLiveServer { server in
            let phone = TestDevice(server: server)
            let session = try await phone.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            // Signed by a hierarchy the server does not trust: a forged purchase.
            let forger = AppStoreTestSigner(pki: try TestPKI.make(name: "Forger"))
            let forged = TestPurchase.buy(TestCatalog.lifetime, on: server).record

            await #expect(throws: StoreSyncClientError.self) {
                try await phone.client.record(signedTransaction: forger.signTransaction(forged))
            }
            #expect(await phone.client.pendingUploads == 0)
            #expect(await phone.client.ledger(in: .account(session.accountId)).isEmpty)
            let rejected = try #require(await phone.client.rejectedUploads.first)
            #expect(rejected.transactionId == forged.transactionId)
            #expect(rejected.problemType == ProblemType.invalidSignedData.uri)
            #expect(await phone.client.isEntitled(to: "premium") == false)
        }
    }

    @Test func textThatIsNotASignedTransactionIsRefusedAndChangesNothing() async throws {
        try await withLiveServer { server in
            let phone = TestDevice(server: server)
            let session = try await phone.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            for garbage in ["", "not a jws", "a.b.c", String(repeating: "x", count: 70_000)] {
                await #expect(throws: StoreSyncClientError.self) {
                    try await phone.client.record(signedTransaction: garbage)
                }
            }
            #expect(await phone.client.pendingUploads == 0)
            #expect(await phone.client.ledger(in: .account(session.accountId)).isEmpty)
            #expect(phone.transport.requests(to: "/v1/transactions") == 0)
        }
    }
}

/// A flag one task sets and another reads.
private final class ManagedFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
