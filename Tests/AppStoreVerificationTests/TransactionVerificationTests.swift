import AppStoreVerification
import Foundation
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct TransactionVerificationTests {
    @Test(arguments: ProductType.allCases)
    func everyProductTypeVerifiesIntoItsRecord(type: ProductType) async throws {
        let pki = try TestPKI.make()
        let original = Fixtures.record(type)
        let jws = Fixtures.signer(pki).signTransaction(original)

        let verified = try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)

        var expected = original
        expected.signedTransaction = jws
        #expect(verified.record == expected)
        #expect(verified.record.evidence == .jws)
        #expect(verified.payload.type == AppStoreProductType(type))
        #expect(verified.payload.bundleId == Fixtures.bundleId)
        #expect(verified.payload.environment == "Sandbox")
    }

    @Test func appleTypeNamesMapToProductTypes() {
        #expect(AppStoreProductType("Auto-Renewable Subscription").productType == .autoRenewable)
        #expect(AppStoreProductType("Non-Consumable").productType == .nonConsumable)
        #expect(AppStoreProductType("Consumable").productType == .consumable)
        #expect(AppStoreProductType("Non-Renewing Subscription").productType == .nonRenewing)
        #expect(AppStoreProductType("Subscription Bundle").productType == ProductType(rawValue: "Subscription Bundle"))
        #expect(AppStoreProductType(ProductType(rawValue: "Subscription Bundle")) == "Subscription Bundle")
    }

    @Test func revokedFamilySharedUpgradedFieldsReachTheRecord() async throws {
        let pki = try TestPKI.make()
        var original = Fixtures.record(.autoRenewable)
        original.revocationDate = Fixtures.signedAt.addingTimeInterval(-60)
        original.revocationReason = .appIssue
        original.ownershipType = .familyShared
        original.isUpgraded = true
        let jws = Fixtures.signer(pki).signTransaction(original)

        let verified = try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)

        #expect(verified.record.revocationDate == original.revocationDate)
        #expect(verified.record.revocationReason == .appIssue)
        #expect(verified.record.ownershipType == .familyShared)
        #expect(verified.record.isUpgraded)
        #expect(verified.payload.revocationType == .familyRevoke)
        #expect(verified.payload.inAppOwnershipType == .familyShared)
    }

    @Test func otherBundleIsRejected() async throws {
        let pki = try TestPKI.make()
        let signer = AppStoreTestSigner(pki: pki, bundleId: "com.other.app")
        let jws = signer.signTransaction(Fixtures.record(.nonConsumable))

        await #expect(throws: VerificationError.bundleMismatch) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)
        }
    }

    @Test(arguments: [AppStoreEnvironment.production, .xcode, .localTesting])
    func otherEnvironmentIsRejected(signedFor environment: AppStoreEnvironment) async throws {
        let pki = try TestPKI.make()
        let jws = Fixtures.signer(pki).signTransaction(Fixtures.record(.nonConsumable, environment: environment))

        await #expect(throws: VerificationError.environmentMismatch) {
            try await Fixtures.verifier(trusting: pki, environment: .sandbox).verifyTransaction(jws)
        }
    }

    @Test func productionTransactionVerifiesInProduction() async throws {
        let pki = try TestPKI.make()
        let jws = Fixtures.signer(pki).signTransaction(Fixtures.record(.nonRenewing, environment: .production))

        let verified = try await Fixtures.verifier(trusting: pki, environment: .production).verifyTransaction(jws)

        #expect(verified.record.environment == .production)
    }

    @Test func aProductTypeAppleAddsLaterVerifiesAndIsKeptAsSpelled() async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        var payload = signer.transactionPayload(for: Fixtures.record(.nonConsumable))
        payload.type = "Subscription Bundle"

        let verified = try await Fixtures.verifier(trusting: pki).verifyTransaction(signer.sign(payload))

        #expect(verified.record.productType.rawValue == "Subscription Bundle")
    }

    @Test func unknownOwnershipAndReasonValuesAreKept() async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        var payload = signer.transactionPayload(for: Fixtures.record(.nonConsumable))
        payload.inAppOwnershipType = "BORROWED"
        payload.transactionReason = "GIFT"
        payload.revocationType = "REFUND_FUTURE"

        let verified = try await Fixtures.verifier(trusting: pki).verifyTransaction(signer.sign(payload))

        #expect(verified.payload.inAppOwnershipType?.rawValue == "BORROWED")
        #expect(verified.payload.transactionReason?.rawValue == "GIFT")
        #expect(verified.payload.revocationType?.rawValue == "REFUND_FUTURE")
        #expect(verified.record.ownershipType == .purchased)
    }

    /// Each field with a JSON value of the wrong type.
    @Test(arguments: [
        ("purchaseDate", #""yesterday""#),
        ("quantity", #""three""#),
        ("isUpgraded", #""yes""#),
        ("transactionId", "42"),
        ("appAccountToken", #""not-a-uuid""#),
        ("revocationReason", #""refund""#),
        ("type", "[]"),
        ("environment", "{}"),
    ])
    func wronglyTypedFieldIsMalformed(field: String, jsonValue: String) async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        var json = try Fixtures.transactionJSON(Fixtures.record(.nonConsumable), signer: signer)
        json[field] = try JSONSerialization.jsonObject(with: Data(jsonValue.utf8), options: .fragmentsAllowed)

        let error = await #expect(throws: VerificationError.self) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(Fixtures.signedJSON(json, with: signer))
        }
        guard case .malformed(let detail) = error else {
            Issue.record("expected malformed, got \(String(describing: error))")
            return
        }
        #expect(detail.contains(field))
    }

    @Test(arguments: ["transactionId", "originalTransactionId", "productId", "type", "purchaseDate", "signedDate"])
    func missingRequiredFieldIsMalformed(field: String) async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        var json = try Fixtures.transactionJSON(Fixtures.record(.nonConsumable), signer: signer)
        json[field] = nil

        let error = await #expect(throws: VerificationError.self) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(Fixtures.signedJSON(json, with: signer))
        }
        guard case .malformed(let detail) = error else {
            Issue.record("expected malformed, got \(String(describing: error))")
            return
        }
        #expect(detail.contains(field))
    }

    @Test func dateBeyondYear9999IsMalformedNotACrash() async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        var json = try Fixtures.transactionJSON(Fixtures.record(.autoRenewable), signer: signer)
        json["expiresDate"] = 1e300

        await #expect(throws: VerificationError.malformed("expiresDate is out of range")) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(Fixtures.signedJSON(json, with: signer))
        }
    }

    @Test func payloadThatIsNotAnObjectIsMalformed() async throws {
        let pki = try TestPKI.make()
        let jws = Fixtures.signer(pki).sign(payload: Data("[1,2,3]".utf8))

        let error = await #expect(throws: VerificationError.self) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)
        }
        #expect(error.map { !$0.isTrustFailure } == true)
    }
}
