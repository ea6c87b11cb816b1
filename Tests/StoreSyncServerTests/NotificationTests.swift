import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite struct NotificationTests {
    private static func subscription(_ server: TestApp, token: UUID? = nil) -> TransactionRecord {
        let now = server.clock.now()
        return TestPurchases.record(
            TestCatalog.monthly, type: .autoRenewable, purchased: now.addingTimeInterval(-86_400),
            signed: now.addingTimeInterval(-86_400), expires: now.addingTimeInterval(29 * 86_400), token: token,
            group: TestCatalog.subscriptionGroup)
    }

    /// A purchase no account holds, whose refund's Server Notification came first and was kept.
    private static func purchaseRefundedBeforeAnyDevicePresentedIt(on server: TestApp) async throws -> TransactionRecord {
        let purchase = TestPurchases.record(purchased: server.clock.now().addingTimeInterval(-3600))
        var refunded = purchase
        refunded.revocationDate = server.clock.now()
        refunded.signedDate = server.clock.now()
        #expect(try await server.notify(.refund, transaction: refunded) == "unclaimed")
        return purchase
    }

    @Test func aRefundRevokesAndItsReversalRestores() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now().addingTimeInterval(-3600))
            _ = try await server.buy(purchase, token: account.token)

            var refunded = purchase
            refunded.revocationDate = server.clock.now()
            refunded.revocationReason = .appIssue
            refunded.signedDate = server.clock.now()
            #expect(try await server.notify(.refund, transaction: refunded) == "processed")
            #expect(try await server.entitlementIds(token: account.token).isEmpty)

            server.clock.advance(by: 60)
            var reversed = purchase
            reversed.signedDate = server.clock.now()
            #expect(try await server.notify(.refundReversed, transaction: reversed) == "processed")
            #expect(try await server.entitlementIds(token: account.token) == ["premium"])
            #expect(try await server.events(of: purchase.originalTransactionId).map(\.kind)
                == ["purchaseClaimed", "revoked", "revocationReversed"])
        }
    }

    @Test func aNotificationIsProcessedOncePerUUID() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now().addingTimeInterval(-60))
            _ = try await server.buy(purchase, token: account.token)
            var refunded = purchase
            refunded.revocationDate = server.clock.now()
            refunded.signedDate = server.clock.now()
            let uuid = UUID()
            #expect(try await server.notify(.refund, uuid: uuid, transaction: refunded) == "processed")
            let version = try await server.versions()[account.accountId]
            #expect(try await server.notify(.refund, uuid: uuid, transaction: refunded) == "duplicate")
            #expect(try await server.versions()[account.accountId] == version)
            #expect(try await server.count("notifications") == 1)
        }
    }

    @Test func aRenewalLandsWithoutAnyDeviceOnline() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let first = Self.subscription(server)
            _ = try await server.buy(first, token: account.token)
            let renewal = TestPurchases.record(
                TestCatalog.monthly, type: .autoRenewable, original: first.originalTransactionId,
                purchased: server.clock.now(), expires: server.clock.now().addingTimeInterval(59 * 86_400),
                group: TestCatalog.subscriptionGroup)
            #expect(try await server.notify(.didRenew, transaction: renewal) == "processed")
            let snapshot = try await server.snapshot(token: account.token)
            #expect(snapshot.entitlements.first?.expiresAt == renewal.expiresDate)
            #expect(try await server.events(of: first.originalTransactionId).map(\.kind).contains("renewed"))
        }
    }

    @Test func aBillingGracePeriodKeepsAccessUntilItEnds() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let lapsed = TestPurchases.record(
                TestCatalog.monthly, type: .autoRenewable, purchased: server.clock.now().addingTimeInterval(-31 * 86_400),
                expires: server.clock.now().addingTimeInterval(-86_400), group: TestCatalog.subscriptionGroup)
            _ = try await server.buy(lapsed, token: account.token)
            #expect(try await server.entitlementIds(token: account.token).isEmpty)

            let graceEnd = server.clock.now().addingTimeInterval(5 * 86_400)
            let renewal = RenewalInfo(
                originalTransactionId: lapsed.originalTransactionId, autoRenewProductId: TestCatalog.monthly,
                productId: TestCatalog.monthly, autoRenewStatus: true, isInBillingRetryPeriod: true,
                gracePeriodExpiresDate: graceEnd, environment: .sandbox, signedDate: server.clock.now())
            #expect(try await server.notify(.didFailToRenew, subtype: .gracePeriod, transaction: lapsed, renewal: renewal)
                == "processed")
            let snapshot = try await server.snapshot(token: account.token)
            #expect(snapshot.entitlements.map(\.entitlementId) == ["premium"])
            #expect(snapshot.validUntil <= graceEnd)

            server.clock.advance(by: 6 * 86_400)
            #expect(try await server.notify(.gracePeriodExpired, transaction: lapsed) == "processed")
            #expect(try await server.entitlementIds(token: account.token).isEmpty)
        }
    }

    @Test func aPurchaseNobodyHoldsWaitsAndLandsWithTheFirstAccountToPresentIt() async throws {
        try await withServer { server in
            let purchase = try await Self.purchaseRefundedBeforeAnyDevicePresentedIt(on: server)
            #expect(try await server.count("unclaimed_versions") == 1)

            let account = try await server.signUp()
            // The device still has the original JWS, from before the refund.
            let response = try await server.buy(purchase, token: account.token)
            #expect(response.snapshot.entitlements.isEmpty, "the refund that arrived first applies")
            #expect(try await server.count("unclaimed_versions") == 0)
        }
    }

    /// A restore looks for kept versions only among purchases whose owner rows it did not create;
    /// the purchase a notification kept versions of is not one of those, even among new ones.
    @Test func aKeptRefundLandsWithTheRestoreThatAlsoClaimsNewPurchases() async throws {
        try await withServer { server in
            let purchase = try await Self.purchaseRefundedBeforeAnyDevicePresentedIt(on: server)
            let others = (0..<3).map { _ in TestPurchases.record(purchased: server.clock.now().addingTimeInterval(-60)) }

            let account = try await server.signUp()
            _ = try await server.restore(([purchase] + others).map(server.entry), token: account.token)

            #expect(try await server.count("unclaimed_versions") == 0)
            let refunds = try await server.database.withConnection { connection in
                try await connection.query(
                    """
                    SELECT count(*)::bigint FROM transactions
                    WHERE account_id = \(account.accountId) AND original_transaction_id = \(purchase.originalTransactionId)
                      AND revocation_date IS NOT NULL
                    """
                ).first!.decode(Int.self)
            }
            #expect(refunds == 1, "the refund the notification kept is the account's")
            for claimed in [purchase] + others {
                #expect(try await server.owner(of: claimed.originalTransactionId) == account.accountId)
            }
        }
    }

    /// Migration 0012: a kept version references its purchase's owner row.
    @Test func aVersionIsKeptUnclaimedOnlyForAPurchaseWithAnOwnerRow() async throws {
        try await withServer { server in
            let error = try await #require(throws: PostgresError.self) {
                try await server.database.withConnection {
                    try await $0.execute(
                        """
                        INSERT INTO unclaimed_versions (original_transaction_id, kind, signed_date, signed_payload)
                        VALUES (\(TestPurchases.nextId()), 'transaction', now(), 'not.a.jws')
                        """)
                }
            }
            #expect(error.code == .foreignKeyViolation)
            #expect(error.constraintName == "unclaimed_versions_owner_row_fkey")
            #expect(try await server.count("unclaimed_versions") == 0)
        }
    }

    @Test func aPurchaseNobodyHoldsIsLinkedByItsAppAccountToken() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now(), token: account.appAccountToken)
            #expect(try await server.notify(.oneTimeCharge, transaction: purchase) == "processed")
            #expect(try await server.entitlementIds(token: account.token) == ["premium"])
            #expect(try await server.owner(of: purchase.originalTransactionId) == account.accountId)
        }
    }

    @Test func aRevokedFamilySharedPurchaseIsGoneForThatMemberOnly() async throws {
        try await withServer { server in
            let organizer = try await server.signUp()
            let member = try await server.signUp()
            let own = TestPurchases.record(purchased: server.clock.now().addingTimeInterval(-60))
            let shared = TestPurchases.record(purchased: server.clock.now().addingTimeInterval(-60), ownership: .familyShared)
            _ = try await server.buy(own, token: organizer.token)
            let memberSnapshot = try await server.buy(shared, token: member.token).snapshot
            #expect(memberSnapshot.entitlements.map(\.ownershipType) == [.familyShared])

            var revoked = shared
            revoked.revocationDate = server.clock.now()
            revoked.signedDate = server.clock.now()
            #expect(try await server.notify(.revoke, transaction: revoked) == "processed")
            #expect(try await server.entitlementIds(token: member.token).isEmpty)
            #expect(try await server.entitlementIds(token: organizer.token) == ["premium"])
        }
    }

    @Test(arguments: [
        NotificationType.subscribed, .didChangeRenewalStatus, .didChangeRenewalPref, .expired, .refundDeclined,
        .renewalExtended,
    ])
    func subscriptionNotificationsAreProcessedForTheHolder(_ type: NotificationType) async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let subscription = Self.subscription(server)
            _ = try await server.buy(subscription, token: account.token)
            let renewal = RenewalInfo(
                originalTransactionId: subscription.originalTransactionId, autoRenewProductId: TestCatalog.monthly,
                autoRenewStatus: type != .didChangeRenewalStatus, environment: .sandbox, signedDate: server.clock.now())
            #expect(try await server.notify(type, transaction: subscription, renewal: renewal) == "processed")
            let stored = try await server.count("renewal_infos")
            #expect(stored == 1)
        }
    }

    @Test func testAndUnknownNotificationsAreAcknowledged() async throws {
        try await withServer { server in
            let test = try await server.notify(.test)
            let unknown = try await server.notify(NotificationType(rawValue: "SOMETHING_NEW"))
            #expect(test == "informational")
            #expect(unknown == "informational")
            #expect(try await server.count("notifications") == 2)
        }
    }

    @Test func aNotificationThatDoesNotVerifyIsRefusedAndChangesNothing() async throws {
        try await withServer { server in
            let otherSigner = AppStoreTestSigner(pki: try TestPKI.make())
            let forged = otherSigner.signNotification(
                type: .refund, signedDate: server.clock.now(), environment: .sandbox,
                transaction: TestPurchases.record(purchased: server.clock.now()))
            let response = try await server.send(
                "POST", "/v1/notifications/appstore", json: NotificationRequest(signedPayload: forged))
            #expect(response.status == 422)
            #expect(response.problem?.type == ProblemType.invalidSignedData.uri)
            #expect(try await server.count("notifications") == 0)

            let garbage = try await server.send(
                "POST", "/v1/notifications/appstore", json: NotificationRequest(signedPayload: "not.a.jws"))
            #expect(garbage.status == 422)
        }
    }
}
