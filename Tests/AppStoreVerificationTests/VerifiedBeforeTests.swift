import AppStoreVerification
import Foundation
import StoreSyncCore
import StoreSyncTesting
import Testing

/// `transaction(verifiedBefore:)` decodes a text that verified before into exactly what
/// verifying it gives, without looking at its signature, and still makes the cheap checks.
@Suite struct VerifiedBeforeTests {
    @Test(arguments: ProductType.allCases)
    func aVerifiedTextDecodesToTheRecordVerificationGives(type: ProductType) async throws {
        let pki = try TestPKI.make()
        let jws = Fixtures.signer(pki).signTransaction(Fixtures.record(type))
        let verifier = try Fixtures.verifier(trusting: pki)
        let verified = try await verifier.verifyTransaction(jws)
        #expect(try verifier.transaction(verifiedBefore: jws) == verified)
    }

    @Test func theSignatureIsNotLookedAt() throws {
        // Trusting an unrelated root, verification would refuse it; the caller vouches for it.
        let jws = Fixtures.signer(try TestPKI.make()).signTransaction(Fixtures.record(.nonConsumable))
        let verifier = try Fixtures.verifier(trusting: try TestPKI.make(name: "Unrelated"))
        #expect(try verifier.transaction(verifiedBefore: jws).record.evidence == .jws)
    }

    @Test(arguments: ["", "a.b", "a.b.c.d", ".b.c", "a..c", "a.b.", "a.b!.c", "abc"])
    func aTextThatIsNotACompactJWSIsMalformed(text: String) throws {
        let verifier = try Fixtures.verifier(trusting: try TestPKI.make())
        #expect {
            try verifier.transaction(verifiedBefore: text)
        } throws: { error in
            if case VerificationError.malformed = error { return true }
            return false
        }
    }

    @Test func anotherAppOrEnvironmentIsStillRefused() throws {
        let pki = try TestPKI.make()
        let otherApp = AppStoreTestSigner(pki: pki, bundleId: "com.other.app").signTransaction(Fixtures.record(.nonConsumable))
        #expect(throws: VerificationError.bundleMismatch) {
            try Fixtures.verifier(trusting: pki).transaction(verifiedBefore: otherApp)
        }
        let sandbox = Fixtures.signer(pki).signTransaction(Fixtures.record(.nonConsumable))
        #expect(throws: VerificationError.environmentMismatch) {
            try Fixtures.verifier(trusting: pki, environment: .production).transaction(verifiedBefore: sandbox)
        }
    }
}
