import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct SessionChangeTests {
    @Test func signingOutWhileARestoreIsInFlightDropsItsAnswer() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            let first = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            _ = try await device.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)

            let gate = device.transport.holdNextResponse(to: "/v1/restore")
            let restoring = Task { try await device.client.restore() }
            await gate.responseArrived.wait()
            // The server has answered for the first account; meanwhile the user switches.
            try await device.client.signOut()
            let second = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            await gate.release.open()

            await #expect(throws: StoreSyncClientError.sessionChanged) { try await restoring.value }
            #expect(await device.client.session == second)
            #expect(await device.client.isEntitled(to: "premium") == false)
            #expect(await device.client.ledger(in: .account(second.accountId)).isEmpty)
            let secondKeys = try device.store.keys(withPrefix: CachePartition.account(second.accountId).keyPrefix)
            for key in secondKeys {
                let text = String(decoding: try #require(try device.store.data(forKey: key)), as: UTF8.self)
                #expect(!text.contains(first.accountId.uuidString.lowercased()), "\(key) holds the first account's data")
            }
        }
    }

    @Test func signingOutWhileAnUploadIsInFlightKeepsThePurchaseQueuedForItsAccount() async throws {
        try await withLiveServer { server in
            let email = TestAccount.email()
            let device = TestDevice(server: server)
            try await device.client.signUp(email: email, password: TestAccount.password)
            let gate = device.transport.holdNextResponse(to: "/v1/transactions")
            let jws = TestPurchase.buy(TestCatalog.lifetime, on: server).jws
            let recording = Task { try await device.client.record(signedTransaction: jws) }
            await gate.responseArrived.wait()
            try await device.client.signOut()
            await gate.release.open()

            #expect(try await recording.value == .queued, "durably queued: the app may finish the transaction")
            #expect(await device.client.entitlements() == .none)

            #expect(try device.store.keys(withPrefix: "storesync.").contains { $0.hasSuffix(".outbox") })

            // Signing in to the account again sends what it left queued.
            try await device.client.signIn(email: email, password: TestAccount.password)
            #expect(await device.client.pendingUploads == 0)
            #expect(device.transport.requests(to: "/v1/transactions") == 2)
            #expect(await device.client.isEntitled(to: "premium"))
        }
    }

    @Test func callsThatNeedAnAccountRefuseWhenSignedOut() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            await #expect(throws: StoreSyncClientError.notSignedIn) { try await device.client.restore() }
            await #expect(throws: StoreSyncClientError.notSignedIn) { try await device.client.refresh() }
            #expect(await device.client.flush() == FlushOutcome())
            try await device.client.signOut()
            #expect(device.transport.requests.isEmpty)
        }
    }

    @Test func wrongPasswordIsInvalidInputAndSignsNobodyIn() async throws {
        try await withLiveServer { server in
            let email = TestAccount.email()
            let device = TestDevice(server: server)
            try await device.client.signUp(email: email, password: TestAccount.password)
            try await device.client.signOut()
            await #expect {
                try await device.client.signIn(email: email, password: "not the password at all")
            } throws: { error in
                guard case StoreSyncClientError.invalidInput(let problem) = error else { return false }
                return problem.problemType == .invalidCredentials
            }
            #expect(await device.client.session == nil)
        }
    }

    @Test func sessionSurvivesARestartWithoutItsTokenInTheCache() async throws {
        try await withLiveServer { server in
            let cache = InMemoryStore()
            let keychain = InMemoryStore()
            let session = try await TestDevice(server: server, store: cache, sessionStore: keychain).client
                .signUp(email: TestAccount.email(), password: TestAccount.password)

            let restarted = TestDevice(server: server, store: cache, sessionStore: keychain)
            #expect(await restarted.client.session == session)
            #expect(cache.contents[CacheKeys.session] == nil, "the token lives in the session store only")
            let saved = String(decoding: try #require(keychain.contents[CacheKeys.session]), as: UTF8.self)
            #expect(!"\(session)".contains("token"))
            #expect(saved.contains("token"))
            #expect(try await restarted.client.refresh() == .notModified)
        }
    }
}
