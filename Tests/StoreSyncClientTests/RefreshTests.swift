import AppStoreVerification
import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct RefreshTests {
    @Test func refreshIsNotModifiedWhileTheAccountIsUnchanged() async throws {
        try await withLiveServer { server in
            let email = TestAccount.email()
            let device = TestDevice(server: server)
            try await device.client.signUp(email: email, password: TestAccount.password)
            #expect(try await device.client.refresh() == .notModified)
            _ = try await device.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)
            // The upload's snapshot came with its ETag: the next refresh names it and is a 304.
            #expect(try await device.client.refresh() == .notModified)
            #expect(await device.client.isEntitled(to: "premium"))
            _ = try await device.client.restore(userInitiated: true)
            #expect(try await device.client.refresh() == .notModified, "a restore's snapshot comes with its ETag too")

            // Another device's purchase changes the account: the tag no longer matches.
            let tablet = TestDevice(server: server)
            try await tablet.client.signIn(email: email, password: TestAccount.password)
            _ = try await tablet.client.record(signedTransaction: TestPurchase.buy(TestCatalog.seasonPass, on: server).jws)
            guard case .updated(let snapshot) = try await device.client.refresh() else {
                Issue.record("expected a new snapshot")
                return
            }
            #expect(snapshot.entitlements.map(\.entitlementId).contains("season"))
        }
    }

    @Test func refundNotificationReachesAnotherDeviceAtItsNextRefresh() async throws {
        try await withLiveServer { server in
            let email = TestAccount.email()
            let phone = TestDevice(server: server)
            try await phone.client.signUp(email: email, password: TestAccount.password)
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server)
            _ = try await phone.client.record(signedTransaction: lifetime.jws)
            let tablet = TestDevice(server: server)
            try await tablet.client.signIn(email: email, password: TestAccount.password)
            #expect(await tablet.client.isEntitled(to: "premium"))

            server.clock.advance(by: 60)
            let refund = lifetime.refunded(at: server.clock.now(), on: server)
            let notification = server.signer.signNotification(
                type: .refund, signedDate: server.clock.now(), environment: .sandbox, transaction: refund.record)
            let delivered = try await server.send(
                "POST", "/v1/notifications/appstore", json: NotificationRequest(signedPayload: notification))
            #expect(delivered.status == 200)

            #expect(await tablet.client.isEntitled(to: "premium"), "offline, the device answers from its snapshot")
            guard case .updated(let snapshot) = try await tablet.client.refresh() else {
                Issue.record("expected a new snapshot")
                return
            }
            #expect(snapshot.entitlements.isEmpty)
            #expect(await tablet.client.isEntitled(to: "premium") == false)
        }
    }

    @Test func snapshotPastValidUntilIsStaleGrantsNothingAndIsRenewedUnconditionally() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            _ = try await device.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)
            _ = try await device.client.refresh()
            let fresh = await device.client.entitlements()
            let validUntil = try #require(fresh.validUntil)
            #expect(fresh.freshness == .fresh)
            #expect(validUntil == server.clock.now().addingTimeInterval(259_200), "the default offline grace: 3 days")

            device.transport.isOffline = true
            server.clock.set(validUntil.addingTimeInterval(-1))
            #expect(await device.client.isEntitled(to: "premium"), "offline, within validUntil")
            server.clock.set(validUntil)
            let stale = await device.client.entitlements()
            #expect(stale.freshness == .stale)
            #expect(stale.entitlements.map(\.entitlementId) == ["premium"], "still listed, for display")
            #expect(await device.client.isEntitled(to: "premium") == false)

            device.transport.isOffline = false
            // Same account version: a conditional request would get a 304 and stay stale.
            guard case .updated(let renewed) = try await device.client.refresh() else {
                Issue.record("expected an unconditional refresh")
                return
            }
            #expect(renewed.validUntil > validUntil)
            #expect(await device.client.isEntitled(to: "premium"))
        }
    }

    @Test func subscriptionEndsAtItsExpiryEvenWithinTheSnapshotsValidity() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            let expires = server.clock.now().addingTimeInterval(3600)
            let monthly = TestPurchase.buy(TestCatalog.monthly, on: server, expires: expires)
            _ = try await device.client.record(signedTransaction: monthly.jws)
            let status = await device.client.entitlements()
            #expect(status.validUntil == expires, "the server never vouches past the earliest expiry")
            #expect(await device.client.isEntitled(to: "premium", at: expires.addingTimeInterval(-1)))
            #expect(await device.client.isEntitled(to: "premium", at: expires) == false)
        }
    }
}
