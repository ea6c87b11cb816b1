import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct MultiDeviceTests {
    @Test func purchaseOnOneDeviceIsRestoredOnASecondWithAnEmptyCache() async throws {
        try await withLiveServer { server in
            let email = TestAccount.email()
            let phone = TestDevice(server: server)
            let session = try await phone.client.signUp(email: email, password: TestAccount.password, deviceName: "iPhone")
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server, token: session.appAccountToken)

            let outcome = try await phone.client.record(signedTransaction: lifetime.jws)
            guard case .acknowledged(let verdict) = outcome else {
                Issue.record("expected an acknowledgement, got \(outcome)")
                return
            }
            #expect(verdict.verdict == .accepted)
            #expect(await phone.client.isEntitled(to: "premium"))

            let tablet = TestDevice(server: server)
            let tabletSession = try await tablet.client.signIn(email: email, password: TestAccount.password, deviceName: "iPad")
            #expect(tabletSession.accountId == session.accountId)
            #expect(tabletSession.deviceId != session.deviceId)
            let restored = try await tablet.client.restore()
            #expect(restored.entitlements.map(\.entitlementId) == ["premium"])
            #expect(restored.entitlements.first?.originalTransactionId == lifetime.record.originalTransactionId)
            #expect(await tablet.client.isEntitled(to: "premium"))
            #expect(await tablet.client.pendingUploads == 0)
        }
    }

    @Test func threeDevicesConvergeOnTheSameEntitlementsWhateverTheOrder() async throws {
        try await withLiveServer { server in
            let email = TestAccount.email()
            let devices = [TestDevice(server: server), TestDevice(server: server), TestDevice(server: server)]
            try await devices[0].client.signUp(email: email, password: TestAccount.password, deviceName: "iPhone")
            try await devices[1].client.signIn(email: email, password: TestAccount.password, deviceName: "iPad")
            try await devices[2].client.signIn(email: email, password: TestAccount.password, deviceName: "Mac")

            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server)
            let monthly = TestPurchase.buy(TestCatalog.monthlyPro, on: server)
            _ = try await devices[0].client.record(signedTransaction: lifetime.jws)
            _ = try await devices[1].client.record(signedTransaction: monthly.jws)
            // The third device also saw the subscription (StoreKit delivers it to every device
            // of the Apple ID): recording it again is known, not a second purchase.
            let again = try await devices[2].client.record(signedTransaction: monthly.jws)
            #expect(again == .acknowledged(Verdict(
                originalTransactionId: monthly.record.originalTransactionId, transactionId: monthly.record.transactionId,
                verdict: .known, productId: TestCatalog.monthlyPro)))

            var versions: Set<Int64> = []
            for device in devices {
                let outcome = try await device.client.restore(userInitiated: false)
                #expect(Set(outcome.entitlements.map(\.entitlementId)) == ["premium", "pro"])
                #expect(outcome.snapshot.transactions.count == 2)
                versions.insert(outcome.snapshot.version)
            }
            #expect(versions.count == 1, "restores that change nothing leave the account version alone")
            for device in devices {
                #expect(await device.client.isEntitled(to: "pro"))
                #expect(await device.client.ledger(in: .account(try #require(await device.client.session?.accountId))).count == 2)
            }
        }
    }

    @Test func signingInAsAnotherAccountNeverShowsTheFirstAccountsPurchases() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            _ = try await device.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)
            #expect(await device.client.isEntitled(to: "premium"))

            try await device.client.signOut()
            #expect(await device.client.entitlements() == .none)
            let other = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            #expect(await device.client.session == other)
            #expect(await device.client.isEntitled(to: "premium") == false)
            #expect(await device.client.ledger(in: .account(other.accountId)).isEmpty)
            #expect(await device.client.entitlements().freshness == .fresh)
        }
    }
}
