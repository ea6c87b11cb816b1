import AppStoreVerification
import Foundation
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct NotificationVerificationTests {
    static let allTypes: [NotificationType] = [
        .subscribed, .didRenew, .didChangeRenewalStatus, .didChangeRenewalPref, .didFailToRenew,
        .gracePeriodExpired, .expired, .refund, .refundDeclined, .refundReversed, .revoke, .renewalExtended,
        .renewalExtension, .oneTimeCharge, .test, .consumptionRequest, .offerRedeemed, .priceIncrease,
        .externalPurchaseToken, .metadataUpdate, .migration, .priceChange, .rescindConsent,
        "A_TYPE_APPLE_ADDS_LATER",
    ]

    @Test(arguments: allTypes)
    func everyNotificationTypeVerifiesWithItsNestedData(type: NotificationType) async throws {
        let pki = try TestPKI.make()
        let uuid = UUID()
        let transaction = Fixtures.record(.autoRenewable)
        let renewal = Fixtures.renewalInfo()
        let signedPayload = Fixtures.signer(pki).signNotification(
            type: type, subtype: .initialBuy, uuid: uuid, signedDate: Fixtures.signedAt, environment: .sandbox,
            transaction: transaction, renewalInfo: renewal)

        let verified = try await Fixtures.verifier(trusting: pki).verifyNotification(signedPayload)

        #expect(verified.payload.notificationType == type)
        #expect(verified.payload.subtype == .initialBuy)
        #expect(verified.payload.notificationUUID == uuid)
        #expect(verified.payload.signedDate == Fixtures.signedAt)
        #expect(verified.payload.version == "2.0")
        #expect(verified.evidence == .jws)
        let nested = try #require(verified.transaction)
        #expect(nested.record.transactionId == transaction.transactionId)
        #expect(nested.record.evidence == .jws)
        #expect(nested.record.signedTransaction == verified.payload.data?.signedTransactionInfo)
        #expect(verified.renewalInfo?.renewalInfo.originalTransactionId == renewal.originalTransactionId)
    }

    @Test(arguments: ProductType.allCases)
    func oneTimeChargeAndSubscribedCarryEveryProductType(type: ProductType) async throws {
        let pki = try TestPKI.make()
        let record = Fixtures.record(type)
        let signedPayload = Fixtures.signer(pki).signNotification(
            type: type == .autoRenewable ? .subscribed : .oneTimeCharge, signedDate: Fixtures.signedAt,
            environment: .sandbox, transaction: record)

        let verified = try await Fixtures.verifier(trusting: pki).verifyNotification(signedPayload)

        #expect(verified.transaction?.record.productType == type)
        #expect(verified.renewalInfo == nil)
    }

    @Test func testNotificationWithoutTransactionVerifies() async throws {
        let pki = try TestPKI.make()
        let signedPayload = Fixtures.signer(pki).signNotification(
            type: .test, signedDate: Fixtures.signedAt, environment: .sandbox)

        let verified = try await Fixtures.verifier(trusting: pki).verifyNotification(signedPayload)

        #expect(verified.payload.notificationType == .test)
        #expect(verified.transaction == nil)
        #expect(verified.payload.data?.bundleId == Fixtures.bundleId)
    }

    @Test func nestedTransactionFromAnotherPKIIsRejected() async throws {
        let pki = try TestPKI.make(name: "Trusted")
        let impostor = try TestPKI.make(name: "Impostor")
        let forgedTransaction = Fixtures.signer(impostor).signTransaction(Fixtures.record(.nonConsumable))
        let payload = NotificationPayload(
            notificationType: .oneTimeCharge, notificationUUID: UUID(),
            data: NotificationData(
                appAppleId: Fixtures.appAppleId, bundleId: Fixtures.bundleId, environment: "Sandbox",
                signedTransactionInfo: forgedTransaction),
            signedDate: Fixtures.signedAt)

        await #expect(throws: VerificationError.invalidChain) {
            try await Fixtures.verifier(trusting: pki).verifyNotification(Fixtures.signer(pki).sign(payload))
        }
    }

    @Test func nestedRenewalInfoWithAForgedSignatureIsRejected() async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        let parts = signer.signRenewalInfo(Fixtures.renewalInfo()).split(separator: ".")
        let otherParts = signer.signRenewalInfo(Fixtures.renewalInfo(signedDate: Date(timeIntervalSince1970: 1_760_000_000)))
            .split(separator: ".")
        let payload = NotificationPayload(
            notificationType: .didChangeRenewalStatus, notificationUUID: UUID(),
            data: NotificationData(
                bundleId: Fixtures.bundleId, environment: "Sandbox",
                signedRenewalInfo: "\(parts[0]).\(parts[1]).\(otherParts[2])"),
            signedDate: Fixtures.signedAt)

        await #expect(throws: VerificationError.invalidSignature) {
            try await Fixtures.verifier(trusting: pki).verifyNotification(signer.sign(payload))
        }
    }

    @Test func notificationForAnotherBundleIsRejected() async throws {
        let pki = try TestPKI.make()
        let signedPayload = AppStoreTestSigner(pki: pki, bundleId: "com.other.app")
            .signNotification(type: .test, signedDate: Fixtures.signedAt, environment: .sandbox)

        await #expect(throws: VerificationError.bundleMismatch) {
            try await Fixtures.verifier(trusting: pki).verifyNotification(signedPayload)
        }
    }

    @Test func productionNotificationForAnotherAppAppleIdIsRejected() async throws {
        let pki = try TestPKI.make()
        let signedPayload = AppStoreTestSigner(pki: pki, bundleId: Fixtures.bundleId, appAppleId: 999)
            .signNotification(type: .test, signedDate: Fixtures.signedAt, environment: .production)

        await #expect(throws: VerificationError.appAppleIdMismatch) {
            try await Fixtures.verifier(trusting: pki, environment: .production).verifyNotification(signedPayload)
        }
    }

    @Test func sandboxNotificationIgnoresAppAppleIdAsAppleDoes() async throws {
        let pki = try TestPKI.make()
        let signedPayload = AppStoreTestSigner(pki: pki, bundleId: Fixtures.bundleId, appAppleId: 999)
            .signNotification(type: .test, signedDate: Fixtures.signedAt, environment: .sandbox)

        let verified = try await Fixtures.verifier(trusting: pki, environment: .sandbox).verifyNotification(signedPayload)

        #expect(verified.payload.data?.appAppleId == 999)
    }

    @Test func notificationFromAnotherEnvironmentIsRejected() async throws {
        let pki = try TestPKI.make()
        let signedPayload = Fixtures.signer(pki).signNotification(
            type: .test, signedDate: Fixtures.signedAt, environment: .sandbox)

        await #expect(throws: VerificationError.environmentMismatch) {
            try await Fixtures.verifier(trusting: pki, environment: .production).verifyNotification(signedPayload)
        }
    }

    @Test func renewalExtensionSummaryIsCheckedAndDecoded() async throws {
        let pki = try TestPKI.make()
        let summary = NotificationSummary(
            requestIdentifier: "req-1", environment: "Sandbox", appAppleId: Fixtures.appAppleId,
            bundleId: Fixtures.bundleId, productId: "com.example.pro.monthly", failedCount: 2, succeededCount: 40)
        let payload = NotificationPayload(
            notificationType: .renewalExtension, subtype: .summary, notificationUUID: UUID(),
            signedDate: Fixtures.signedAt, summary: summary)

        let verified = try await Fixtures.verifier(trusting: pki).verifyNotification(Fixtures.signer(pki).sign(payload))

        #expect(verified.payload.summary == summary)
        #expect(verified.payload.subtype == .summary)
    }

    @Test func externalPurchaseTokenNotificationTakesItsEnvironmentFromTheTokenId() async throws {
        let pki = try TestPKI.make()
        let token = ExternalPurchaseToken(
            externalPurchaseId: "SANDBOX_abc", tokenCreationDate: Fixtures.signedAt, appAppleId: Fixtures.appAppleId,
            bundleId: Fixtures.bundleId)
        let payload = NotificationPayload(
            notificationType: .externalPurchaseToken, subtype: .unreported, notificationUUID: UUID(),
            signedDate: Fixtures.signedAt, externalPurchaseToken: token)
        let signedPayload = Fixtures.signer(pki).sign(payload)

        let verified = try await Fixtures.verifier(trusting: pki, environment: .sandbox).verifyNotification(signedPayload)
        #expect(verified.payload.externalPurchaseToken == token)
        await #expect(throws: VerificationError.environmentMismatch) {
            try await Fixtures.verifier(trusting: pki, environment: .production).verifyNotification(signedPayload)
        }
    }

    @Test func notificationWithoutDataOrSummaryIsMalformed() async throws {
        let pki = try TestPKI.make()
        let payload = NotificationPayload(notificationType: .test, notificationUUID: UUID(), signedDate: Fixtures.signedAt)

        let error = await #expect(throws: VerificationError.self) {
            try await Fixtures.verifier(trusting: pki).verifyNotification(Fixtures.signer(pki).sign(payload))
        }
        guard case .malformed = error else {
            Issue.record("expected malformed, got \(String(describing: error))")
            return
        }
    }

    @Test(arguments: [
        ("notificationUUID", #""not-a-uuid""#),
        ("notificationUUID", "null"),
        ("notificationType", "7"),
        ("signedDate", #""2025-06-15""#),
        ("data", #""{}""#),
        ("subtype", "[]"),
    ])
    func wronglyTypedNotificationFieldIsMalformed(field: String, jsonValue: String) async throws {
        let pki = try TestPKI.make()
        var json: [String: Any] = [
            "notificationType": "TEST", "notificationUUID": UUID().uuidString, "version": "2.0",
            "signedDate": Fixtures.signedAt.timeIntervalSince1970 * 1000,
            "data": ["bundleId": Fixtures.bundleId, "environment": "Sandbox"],
        ]
        json[field] = try JSONSerialization.jsonObject(with: Data(jsonValue.utf8), options: .fragmentsAllowed)

        let error = await #expect(throws: VerificationError.self) {
            try await Fixtures.verifier(trusting: pki).verifyNotification(
                Fixtures.signedJSON(json, with: Fixtures.signer(pki)))
        }
        guard case .malformed(let detail) = error else {
            Issue.record("expected malformed, got \(String(describing: error))")
            return
        }
        #expect(detail.contains(field))
    }
}
