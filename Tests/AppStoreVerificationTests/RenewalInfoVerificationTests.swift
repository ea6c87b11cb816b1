import AppStoreVerification
import Foundation
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct RenewalInfoVerificationTests {
    @Test func renewalInfoVerifiesWithEveryField() async throws {
        let pki = try TestPKI.make()
        let original = Fixtures.renewalInfo()
        let jws = Fixtures.signer(pki).signRenewalInfo(original)

        let verified = try await Fixtures.verifier(trusting: pki).verifyRenewalInfo(jws)

        var expected = original
        expected.signedRenewalInfo = jws
        #expect(verified.renewalInfo == expected)
        #expect(verified.evidence == .jws)
        #expect(verified.payload.autoRenewStatus == 1)
        #expect(verified.payload.expirationIntent == 2)
    }

    @Test func autoRenewOffIsFalse() async throws {
        let pki = try TestPKI.make()
        var original = Fixtures.renewalInfo()
        original.autoRenewStatus = false
        original.gracePeriodExpiresDate = nil

        let verified = try await Fixtures.verifier(trusting: pki)
            .verifyRenewalInfo(Fixtures.signer(pki).signRenewalInfo(original))

        #expect(verified.renewalInfo.autoRenewStatus == false)
        #expect(verified.renewalInfo.gracePeriodExpiresDate == nil)
    }

    @Test func renewalInfoOfAnotherEnvironmentIsRejected() async throws {
        let pki = try TestPKI.make()
        let jws = Fixtures.signer(pki).signRenewalInfo(Fixtures.renewalInfo(environment: .xcode))

        await #expect(throws: VerificationError.environmentMismatch) {
            try await Fixtures.verifier(trusting: pki).verifyRenewalInfo(jws)
        }
    }

    @Test func renewalInfoWithoutOriginalTransactionIdIsMalformed() async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        var payload = signer.renewalInfoPayload(for: Fixtures.renewalInfo())
        payload.originalTransactionId = nil

        await #expect(throws: VerificationError.malformed("originalTransactionId is missing")) {
            try await Fixtures.verifier(trusting: pki).verifyRenewalInfo(signer.sign(payload))
        }
    }

    @Test func transactionIsNotAcceptedAsRenewalInfoByAccident() async throws {
        let pki = try TestPKI.make()
        let jws = Fixtures.signer(pki).signTransaction(Fixtures.record(.autoRenewable))

        let verified = try await Fixtures.verifier(trusting: pki).verifyRenewalInfo(jws)

        // A transaction decodes as renewal info (both are Apple JSON), but only the shared
        // fields carry over: auto-renew is not claimed.
        #expect(verified.renewalInfo.autoRenewStatus == false)
    }
}
