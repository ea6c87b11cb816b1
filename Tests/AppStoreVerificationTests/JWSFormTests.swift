import AppStoreVerification
import Crypto
import Foundation
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct JWSFormTests {
    @Test(arguments: ["none", "HS256", "ES384", "ES512", "RS256", "PS256", "EdDSA", "es256", ""])
    func onlyES256IsAccepted(alg: String) async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        let jws = signer.sign(signer.transactionPayload(for: Fixtures.record(.nonConsumable)), header: .init(alg: alg))

        await #expect(throws: VerificationError.unsupportedAlgorithm(alg)) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)
        }
    }

    @Test func unsignedTokenWithAlgNoneAndEmptySignatureIsRejected() async throws {
        let pki = try TestPKI.make()
        let header = AppStoreTestSigner.base64URL(Data(#"{"alg":"none"}"#.utf8))
        let payload = AppStoreTestSigner.base64URL(
            try JSONEncoder().encode(Fixtures.signer(pki).transactionPayload(for: Fixtures.record(.nonConsumable))))

        await #expect(throws: VerificationError.self) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction("\(header).\(payload).")
        }
    }

    @Test(arguments: [
        "", ".", "..", "a.b", "a.b.c.d", "a..c", ".b.c", "a.b.", "not a jws at all",
        "eyJhbGciOiJFUzI1NiJ9.e30.AA==",  // padding is not base64url
        "eyJhbGciOiJFUzI1NiJ9.e30.AA+/",  // the standard alphabet is not base64url
        "eyJhbGciOiJFUzI1NiJ9.e30.A",  // a length no encoding produces
        "eyJhbGciOiJFUzI1NiJ9.e31.AAAA",  // non-zero trailing bits: a second spelling of "{}"
        "bm90IGpzb24.e30.AAAA",  // a header that is not JSON
        "e30.e30.AAAA",  // a header without alg
        "eyJhbGciOjI1Nn0.e30.AAAA",  // alg of the wrong type
    ])
    func malformedCompactFormIsRejected(text: String) async throws {
        let pki = try TestPKI.make()

        let error = await #expect(throws: VerificationError.self) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(text)
        }
        guard case .malformed = error else {
            Issue.record("expected malformed, got \(String(describing: error))")
            return
        }
    }

    @Test func tokenLargerThan64KiBIsMalformed() async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        var payload = signer.transactionPayload(for: Fixtures.record(.nonConsumable))
        payload.offerIdentifier = String(repeating: "x", count: 70_000)

        await #expect(throws: VerificationError.malformed("the JWS is larger than 65536 bytes")) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(signer.sign(payload))
        }
    }

    @Test func criticalHeaderParametersAreRefused() async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        let payload = try JSONEncoder().encode(signer.transactionPayload(for: Fixtures.record(.nonConsumable)))
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "x5c": pki.x5c, "crit": ["b64"]])

        let error = await #expect(throws: VerificationError.self) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(signer.sign(rawHeader: header, payload: payload))
        }
        guard case .malformed = error else {
            Issue.record("expected malformed, got \(String(describing: error))")
            return
        }
    }

    @Test func missingX5cIsAnInvalidChain() async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        let jws = signer.sign(signer.transactionPayload(for: Fixtures.record(.nonConsumable)), header: .init(omitX5c: true))

        await #expect(throws: VerificationError.invalidChain) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)
        }
    }

    @Test func signatureByAnotherKeyIsInvalid() async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        let jws = signer.sign(
            signer.transactionPayload(for: Fixtures.record(.nonConsumable)), signingKey: P256.Signing.PrivateKey())

        await #expect(throws: VerificationError.invalidSignature) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)
        }
    }

    @Test func payloadSwappedUnderAValidSignatureIsInvalid() async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        let genuine = signer.signTransaction(Fixtures.record(.consumable)).split(separator: ".")
        var forgedRecord = Fixtures.record(.consumable)
        forgedRecord.quantity = 1000
        let forged = signer.signTransaction(forgedRecord).split(separator: ".")

        await #expect(throws: VerificationError.invalidSignature) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction("\(genuine[0]).\(forged[1]).\(genuine[2])")
        }
    }

    @Test(arguments: [0, 63, 65, 72])
    func signatureOfWrongLengthIsInvalid(length: Int) async throws {
        let pki = try TestPKI.make()
        let parts = Fixtures.signer(pki).signTransaction(Fixtures.record(.nonConsumable)).split(separator: ".")
        let signature = length == 0 ? "" : AppStoreTestSigner.base64URL(Data(repeating: 7, count: length))
        let jws = "\(parts[0]).\(parts[1]).\(signature)"

        let error = await #expect(throws: VerificationError.self) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)
        }
        #expect(error == .invalidSignature || error == .malformed("a part of the JWS is empty"))
    }

    @Test func derEncodedSignatureIsRefusedBecauseJWSUsesRawRS() async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        let parts = signer.signTransaction(Fixtures.record(.nonConsumable)).split(separator: ".")
        let der = try pki.leafKey.signature(for: Data("\(parts[0]).\(parts[1])".utf8)).derRepresentation
        let jws = "\(parts[0]).\(parts[1]).\(AppStoreTestSigner.base64URL(der))"

        await #expect(throws: VerificationError.invalidSignature) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)
        }
    }
}
