import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

/// A session the server ended (password changed on another device, signed out from the device
/// list, idle too long) is ended on the device at its first refused request, as a sign-out
/// would: the app sees nobody signed in, and what the account queued uploads once it signs in
/// again.
@Suite struct RevokedSessionTests {
    @Test func purchaseWithARevokedSessionEndsItAndUploadsOnceTheUserSignsInAgain() async throws {
        try await withLiveServer { server in
            let email = TestAccount.email()
            let phone = TestDevice(server: server)
            try await phone.client.signUp(email: email, password: TestAccount.password)
            let tablet = PurchasingDevice(server: server)
            await tablet.purchases.start()
            let session = try await tablet.purchases.signIn(email: email, password: TestAccount.password)
            try await phone.client.changePassword(current: TestAccount.password, new: "another long passphrase")

            let outcome = await tablet.purchases.purchase(TestCatalog.lifetime)
            #expect(outcome.recorded == .queued)
            #expect(tablet.appStore.finishedTransactionIds.count == 1, "durably queued: safe to finish")
            #expect(await tablet.client.session == nil, "the app learns it must ask the user to sign in")
            #expect(try tablet.device.sessionStore.data(forKey: CacheKeys.session) == nil, "nor is it back at the next launch")
            let queued = try #require(tablet.appStore.purchase(withId: tablet.appStore.finishedTransactionIds[0]))
            #expect(queued.record.appAccountToken == session.appAccountToken)

            try await tablet.purchases.signIn(email: email, password: "another long passphrase")
            #expect(await tablet.client.pendingUploads == 0, "uploaded at sign-in, not at the end of a backoff")
            #expect(await tablet.client.isEntitled(to: "premium"))
            #expect(try await server.owner(of: queued.record.originalTransactionId) == session.accountId)
            await tablet.purchases.stop()
        }
    }

    @Test func refreshWithASessionSignedOutElsewhereSaysUnauthorizedAndEndsIt() async throws {
        try await withLiveServer { server in
            let email = TestAccount.email()
            let phone = TestDevice(server: server)
            try await phone.client.signUp(email: email, password: TestAccount.password)
            let tablet = TestDevice(server: server)
            let session = try await tablet.client.signIn(email: email, password: TestAccount.password)
            tablet.transport.isOffline = true
            #expect(try await tablet.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws) == .queued)
            tablet.transport.isOffline = false
            try await phone.client.signOut(deviceId: session.deviceId)

            // The refresh's flush meets the refusal first: the caller still hears why.
            await #expect(throws: StoreSyncClientError.unauthorized) { try await tablet.client.refresh() }
            #expect(await tablet.client.session == nil)
            #expect(await tablet.relaunched(on: server).client.session == nil)

            try await tablet.client.signIn(email: email, password: TestAccount.password)
            #expect(await tablet.client.pendingUploads == 0)
            #expect(await tablet.client.isEntitled(to: "premium"))
        }
    }

    @Test func aPortalsUnauthorizedAnswerEndsNoSession() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            let session = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            device.transport.interceptingResponse = TransportResponse(
                status: 401, headers: ["Content-Type": "text/html"], body: Data("<html>Log in to the hotel Wi-Fi</html>".utf8))

            #expect(try await device.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws) == .queued)
            #expect(await device.client.session == session)

            device.transport.interceptingResponse = nil
            #expect(await device.client.flush().uploaded == 1)
            #expect(await device.client.isEntitled(to: "premium"))
        }
    }
}
