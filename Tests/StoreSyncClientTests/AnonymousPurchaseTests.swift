import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct AnonymousPurchaseTests {
    @Test func purchaseRecordedBeforeSignInIsClaimedByTheAccountAtSignUp() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server)
            #expect(try await device.client.record(signedTransaction: lifetime.jws) == .storedUntilSignIn)
            #expect(await device.client.unclaimedPurchases == 1)
            #expect(await device.client.isEntitled(to: "premium") == false)
            #expect(device.transport.requests.isEmpty)

            let session = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            #expect(await device.client.unclaimedPurchases == 0)
            #expect(await device.client.isEntitled(to: "premium"))
            let moved = await device.client.ledger(in: .account(session.accountId))
            #expect(moved[lifetime.record.transactionId]?.signedTransaction == lifetime.jws, "the JWS moves with it")
        }
    }

    @Test func claimAtSignInNeverTakesAPurchaseFromAnotherAccountButTheUserMayAskForIt() async throws {
        try await withLiveServer { server in
            let owner = TestDevice(server: server)
            try await owner.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server)
            _ = try await owner.client.record(signedTransaction: lifetime.jws)

            // Same Apple ID on another device, signed in to another app account.
            let other = TestDevice(server: server)
            #expect(try await other.client.record(signedTransaction: lifetime.jws) == .storedUntilSignIn)
            try await other.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            #expect(await other.client.isEntitled(to: "premium") == false)
            #expect(await other.client.unclaimedPurchases == 0, "kept in the account's partition, not offered again")
            _ = try await owner.client.refresh()
            #expect(await owner.client.isEntitled(to: "premium"), "a background claim moved nothing")

            let preview = try await other.client.restore(userInitiated: true, dryRun: true)
            #expect(preview.isDryRun)
            #expect(preview.transfers.map(\.originalTransactionId) == [lifetime.record.originalTransactionId])
            #expect(await other.client.isEntitled(to: "premium") == false, "a dry run changes nothing on the device")
            _ = try await owner.client.refresh()
            #expect(await owner.client.isEntitled(to: "premium"), "nor on the server")

            let restored = try await other.client.restore(userInitiated: true)
            #expect(restored.transfers.count == 1)
            #expect(await other.client.isEntitled(to: "premium"))
            _ = try await owner.client.refresh()
            #expect(await owner.client.isEntitled(to: "premium") == false, "the transfer policy moved it")
        }
    }

    @Test func claimWhoseAccountLedgerCannotBeSavedKeepsThePurchaseOnTheDevice() async throws {
        try await withLiveServer { server in
            let owner = TestDevice(server: server)
            try await owner.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server)
            _ = try await owner.client.record(signedTransaction: lifetime.jws)

            // Finished on this device before sign-in, owned by another account: the device's copy is the only one.
            let cache = FaultyStore()
            let other = TestDevice(server: server, store: cache)
            #expect(try await other.client.record(signedTransaction: lifetime.jws) == .storedUntilSignIn)
            cache.failsWrites = { $0.hasPrefix("storesync.acct.") && $0.hasSuffix(".ledger") }
            let session = try await other.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            #expect(await other.client.unclaimedPurchases == 1, "not let go before the account's partition held it")

            cache.failsWrites = { _ in false }
            await other.client.flush()
            #expect(await other.client.unclaimedPurchases == 0)
            let kept = await other.client.ledger(in: .account(session.accountId))[lifetime.record.transactionId]
            #expect(kept?.signedTransaction == lifetime.jws, "kept for a restore the user may ask for")
        }
    }

    @Test func claimThatFailsOfflineIsRetriedLater() async throws {
        try await withLiveServer { server in
            let email = TestAccount.email()
            let device = TestDevice(server: server)
            _ = try await device.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)
            // Sign in succeeds, then the connection drops before the claim.
            let gate = device.transport.holdNextResponse(to: "/v1/accounts")
            let signingUp = Task { try await device.client.signUp(email: email, password: TestAccount.password) }
            await gate.responseArrived.wait()
            device.transport.isOffline = true
            await gate.release.open()
            _ = try await signingUp.value
            #expect(await device.client.unclaimedPurchases == 1)

            device.transport.isOffline = false
            let flushed = await device.client.flush()
            #expect(flushed.pending == 0)
            #expect(await device.client.unclaimedPurchases == 0)
            #expect(await device.client.isEntitled(to: "premium"))
        }
    }
}
