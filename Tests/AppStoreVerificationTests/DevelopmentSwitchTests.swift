import AppStoreVerification
import Crypto
import Foundation
import Logging
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct DevelopmentSwitchTests {
    @Test func switchOnIsAnnouncedLoudlyAtStart() throws {
        let (logger, store) = CapturingLogHandler.logger()
        _ = try Fixtures.verifier(trusting: TestPKI.make(), allowUnverified: true, logger: logger)

        let loud = store.all.filter { $0.level >= .warning }
        #expect(loud.count == 1)
        #expect(loud.first?.message.contains("UNVERIFIED") == true)
    }

    @Test func switchOffSaysNothingAtStart() throws {
        let (logger, store) = CapturingLogHandler.logger()
        _ = try Fixtures.verifier(trusting: TestPKI.make(), allowUnverified: false, logger: logger)

        #expect(store.all.isEmpty)
    }

    @Test func untrustedTransactionIsAcceptedAndMarkedUnverified() async throws {
        let trusted = try TestPKI.make(name: "Trusted")
        let xcode = try TestPKI.make(name: "Xcode StoreKit Testing")
        let record = Fixtures.record(.nonConsumable, environment: .xcode)
        let jws = Fixtures.signer(xcode).signTransaction(record)

        let verified = try await Fixtures.verifier(trusting: trusted, environment: .xcode, allowUnverified: true)
            .verifyTransaction(jws)

        #expect(verified.record.evidence == .unverifiedJWS)
        #expect(verified.record.signedTransaction == jws)
        #expect(verified.record.transactionId == record.transactionId)
    }

    @Test func badSignatureIsAcceptedAsUnverifiedUnderTheSwitch() async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        let jws = signer.sign(
            signer.transactionPayload(for: Fixtures.record(.consumable)), signingKey: P256.Signing.PrivateKey())

        let verified = try await Fixtures.verifier(trusting: pki, allowUnverified: true).verifyTransaction(jws)

        #expect(verified.record.evidence == .unverifiedJWS)
    }

    @Test func genuineDataStaysVerifiedUnderTheSwitch() async throws {
        let pki = try TestPKI.make()
        let jws = Fixtures.signer(pki).signTransaction(Fixtures.record(.autoRenewable))

        let verified = try await Fixtures.verifier(trusting: pki, allowUnverified: true).verifyTransaction(jws)

        #expect(verified.record.evidence == .jws)
    }

    @Test func switchForgivesNeitherFormNorClaims() async throws {
        let pki = try TestPKI.make()
        let verifier = try Fixtures.verifier(trusting: pki, allowUnverified: true)
        let otherBundle = AppStoreTestSigner(pki: pki, bundleId: "com.other.app")
            .signTransaction(Fixtures.record(.nonConsumable))
        let otherEnvironment = Fixtures.signer(pki).signTransaction(Fixtures.record(.nonConsumable, environment: .xcode))
        let signer = Fixtures.signer(pki)
        let algNone = signer.sign(signer.transactionPayload(for: Fixtures.record(.nonConsumable)), header: .init(alg: "none"))

        await #expect(throws: VerificationError.bundleMismatch) { try await verifier.verifyTransaction(otherBundle) }
        await #expect(throws: VerificationError.environmentMismatch) {
            try await verifier.verifyTransaction(otherEnvironment)
        }
        await #expect(throws: VerificationError.unsupportedAlgorithm("none")) { try await verifier.verifyTransaction(algNone) }
        await #expect(throws: VerificationError.self) { try await verifier.verifyTransaction("garbage") }
    }

    @Test func untrustedNotificationAndItsNestedDataAreMarkedUnverified() async throws {
        let trusted = try TestPKI.make(name: "Trusted")
        let other = try TestPKI.make(name: "Other")
        let signedPayload = Fixtures.signer(other).signNotification(
            type: .didRenew, signedDate: Fixtures.signedAt, environment: .sandbox,
            transaction: Fixtures.record(.autoRenewable), renewalInfo: Fixtures.renewalInfo())

        let verified = try await Fixtures.verifier(trusting: trusted, allowUnverified: true)
            .verifyNotification(signedPayload)

        #expect(verified.evidence == .unverifiedJWS)
        #expect(verified.transaction?.record.evidence == .unverifiedJWS)
        #expect(verified.renewalInfo?.evidence == .unverifiedJWS)
    }
}
