import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

/// The first sign-in on a device imports `Transaction.currentEntitlements`, once per account.
@Suite struct EntitlementImportTests {
    @Test func firstSignInOnADeviceImportsWhatTheAppleIDAlreadyOwns() async throws {
        try await withLiveServer { server in
            let phone = PurchasingDevice(server: server)
            // Bought before the app had accounts: no token, owned by this Apple ID.
            let earlier = TestPurchase.buy(TestCatalog.lifetime, on: server)
            phone.appStore.own(earlier)
            await phone.purchases.start()
            #expect(phone.transport.requests(to: "/v1/transactions") == 0, "nobody to import for yet")

            let session = try await phone.purchases.signUp(email: TestAccount.email(), password: TestAccount.password)
            #expect(phone.transport.requests(to: "/v1/transactions") == 1)
            #expect(await phone.client.isEntitled(to: "premium"))
            #expect(try await server.owner(of: earlier.record.originalTransactionId) == session.accountId)
            #expect(phone.appStore.finishedTransactionIds.isEmpty, "entitlements are not re-finished")
            await phone.purchases.stop()
        }
    }

    @Test func importRunsOncePerAccountOnEachDevice() async throws {
        try await withLiveServer { server in
            let email = TestAccount.email()
            let appleID = SimulatedStoreKit(server: server)
            appleID.own(TestPurchase.buy(TestCatalog.lifetime, on: server))
            let phone = PurchasingDevice(server: server, appStore: appleID)
            await phone.purchases.start()
            try await phone.purchases.signUp(email: email, password: TestAccount.password)
            #expect(phone.transport.requests(to: "/v1/transactions") == 1)

            // The next launches, and signing in again to the same account, import nothing.
            let relaunched = await phone.relaunched(on: server)
            await relaunched.purchases.start()
            try await relaunched.client.signOut()
            try await relaunched.purchases.signIn(email: email, password: TestAccount.password)
            #expect(relaunched.transport.requests(to: "/v1/transactions") == 1)
            #expect(await relaunched.client.isEntitled(to: "premium"))

            // Another account on this device imports for itself (the purchase stays with its owner).
            try await relaunched.client.signOut()
            try await relaunched.purchases.signUp(email: TestAccount.email(), password: TestAccount.password)
            #expect(relaunched.transport.requests(to: "/v1/transactions") == 2)
            #expect(await relaunched.client.isEntitled(to: "premium") == false)

            // The same account on another device with this Apple ID imports there too.
            let tablet = PurchasingDevice(server: server, appStore: appleID)
            await tablet.purchases.start()
            try await tablet.purchases.signIn(email: email, password: TestAccount.password)
            #expect(tablet.transport.requests(to: "/v1/transactions") == 1)
            #expect(await tablet.client.isEntitled(to: "premium"))
            await relaunched.purchases.stop()
            await tablet.purchases.stop()
        }
    }

    @Test func importsAskedForAtOnceEnumerateStoreKitOnce() async throws {
        try await withLiveServer { server in
            let phone = PurchasingDevice(server: server)
            phone.appStore.own(TestPurchase.buy(TestCatalog.lifetime, on: server))
            // Signed in without the coordinator: nothing imported yet.
            try await phone.client.signUp(email: TestAccount.email(), password: TestAccount.password)

            // As when start() and signIn() both import: later calls arrive while the first awaits the client.
            await withDiscardingTaskGroup { group in
                for _ in 0..<8 { group.addTask { await phone.purchases.importEntitlementsIfNeeded() } }
            }
            #expect(phone.appStore.currentEntitlementsCount == 1)
            #expect(phone.transport.requests(to: "/v1/transactions") == 1)
            #expect(await phone.client.isEntitled(to: "premium"))
        }
    }

    @Test func importAskedForWhileOneRunsForAnAccountSignedOutSinceStillRuns() async throws {
        try await withLiveServer { server in
            let phone = PurchasingDevice(server: server)
            phone.appStore.own(TestPurchase.buy(TestCatalog.lifetime, on: server))
            try await phone.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            let upload = phone.transport.holdNextResponse(to: "/v1/transactions")
            let importingForFirst = Task { await phone.purchases.importEntitlementsIfNeeded() }
            await upload.responseArrived.wait()

            // The user switches accounts while the first account's import is uploading.
            try await phone.client.signOut()
            try await phone.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            let releaser = Task {
                while !Task.isCancelled, !(await phone.purchases.importRequestedDuringRun) { await Task.yield() }
                await upload.release.open()
            }
            await phone.purchases.importEntitlementsIfNeeded()
            await upload.release.open()
            await importingForFirst.value
            releaser.cancel()

            #expect(phone.appStore.currentEntitlementsCount == 2, "the second account's import ran after the first")
            #expect(await phone.client.sessionAwaitingEntitlementImport() == nil)
        }
    }

    @Test func adoptingABackendMintedSessionImportsWhatTheAppleIDOwns() async throws {
        try await withLiveServer { server in
            let phone = PurchasingDevice(server: server)
            let earlier = TestPurchase.buy(TestCatalog.lifetime, on: server)
            phone.appStore.own(earlier)
            // At launch nobody is signed in yet: the app's backend signs the user in later.
            await phone.purchases.start()
            #expect(phone.transport.requests(to: "/v1/transactions") == 0, "nobody to import for yet")

            let minted = try await server.mintSession(forExternalUser: "app-user-1", adminKey: server.adminKey)
            let session = try await phone.purchases.adoptSession(minted)
            #expect(session.accountId == minted.accountId)
            #expect(phone.transport.requests(to: "/v1/transactions") == 1)
            #expect(await phone.client.isEntitled(to: "premium"))
            #expect(try await server.owner(of: earlier.record.originalTransactionId) == session.accountId)
            #expect(await phone.client.sessionAwaitingEntitlementImport() == nil)

            // Once per account on this device: adopting another session of the same user imports nothing.
            let again = try await server.mintSession(forExternalUser: "app-user-1", adminKey: server.adminKey)
            try await phone.purchases.adoptSession(again)
            #expect(phone.transport.requests(to: "/v1/transactions") == 1)
            await phone.purchases.stop()
        }
    }

    @Test func sessionAdoptedWhileAnotherAccountsImportRunsIsImportedToo() async throws {
        try await withLiveServer { server in
            let phone = PurchasingDevice(server: server)
            phone.appStore.own(TestPurchase.buy(TestCatalog.lifetime, on: server))
            try await phone.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            let upload = phone.transport.holdNextResponse(to: "/v1/transactions")
            let importingForFirst = Task { await phone.purchases.importEntitlementsIfNeeded() }
            await upload.responseArrived.wait()

            // The app's backend hands over another user's session while the first account's
            // import is uploading.
            let minted = try await server.mintSession(forExternalUser: "app-user-2", adminKey: server.adminKey)
            let releaser = Task {
                while !Task.isCancelled, !(await phone.purchases.importRequestedDuringRun) { await Task.yield() }
                await upload.release.open()
            }
            let session = try await phone.purchases.adoptSession(minted)
            // Had the adoption asked for no pass, the first import would still be held here.
            await upload.release.open()
            await importingForFirst.value
            releaser.cancel()

            #expect(await phone.client.session?.accountId == session.accountId)
            #expect(phone.appStore.currentEntitlementsCount == 2, "the adopted account's import ran after the first")
            #expect(await phone.client.sessionAwaitingEntitlementImport() == nil)
        }
    }

    @Test func importThatCouldNotBeStoredRunsAgainAtTheNextStart() async throws {
        try await withLiveServer { server in
            let cache = OutboxFailingStore()
            let phone = PurchasingDevice(server: server, device: TestDevice(server: server, store: cache))
            phone.appStore.own(TestPurchase.buy(TestCatalog.lifetime, on: server))
            await phone.purchases.start()
            cache.failsOutboxWrites = true
            try await phone.purchases.signUp(email: TestAccount.email(), password: TestAccount.password)
            #expect(phone.transport.requests(to: "/v1/transactions") == 0)

            cache.failsOutboxWrites = false
            let relaunched = await phone.relaunched(on: server)
            await relaunched.purchases.start()
            #expect(relaunched.transport.requests(to: "/v1/transactions") == 1)
            #expect(await relaunched.client.isEntitled(to: "premium"))
            await relaunched.purchases.stop()
        }
    }
}
