import AppStoreVerification
import Foundation
import SwiftASN1
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct CertificateChainTests {
    private static let january2024 = Date(timeIntervalSince1970: 1_704_067_200)
    private static let january2025 = Date(timeIntervalSince1970: 1_735_689_600)

    private func transaction(signedAt date: Date, by signer: AppStoreTestSigner, header: AppStoreTestHeader = .init())
        -> String
    {
        signer.sign(signer.transactionPayload(for: Fixtures.record(.nonConsumable, signedDate: date)), header: header)
    }

    @Test func expiredLeafRejectsDataSignedAfterItExpired() async throws {
        let pki = try TestPKI.make(leafValidity: Self.january2024...Self.january2025)
        let jws = transaction(signedAt: Fixtures.signedAt, by: Fixtures.signer(pki))

        await #expect(throws: VerificationError.certificateExpired) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)
        }
    }

    @Test func expiredLeafStillVerifiesDataSignedWhileItWasValid() async throws {
        let pki = try TestPKI.make(leafValidity: Self.january2024...Self.january2025)
        let signedWhileValid = Date(timeIntervalSince1970: 1_720_000_000)
        let jws = transaction(signedAt: signedWhileValid, by: Fixtures.signer(pki))

        let verified = try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)

        #expect(verified.record.signedDate == signedWhileValid)
        #expect(verified.record.evidence == .jws)
    }

    @Test func leafNotYetValidAtSignedDateIsRejected() async throws {
        let pki = try TestPKI.make(leafValidity: Self.january2025...TestPKI.defaultValidity.upperBound)
        let jws = transaction(signedAt: Self.january2024, by: Fixtures.signer(pki))

        await #expect(throws: VerificationError.certificateExpired) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)
        }
    }

    @Test func chainExpiredAsAWholeRejectsLaterData() async throws {
        let pki = try TestPKI.make(validity: Self.january2024...Self.january2025)
        let jws = transaction(signedAt: Fixtures.signedAt, by: Fixtures.signer(pki))

        await #expect(throws: VerificationError.certificateExpired) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)
        }
    }

    @Test(arguments: [
        (TestPKIMarker.missing, TestPKIMarker.apple),
        (.other(TestPKI.appleIntermediateOID), .apple),
        (.other([1, 2, 840, 113635, 100, 6, 11, 2]), .apple),
        (.apple, .missing),
        (.apple, .other(TestPKI.appleLeafOID)),
        (.apple, .other([1, 2, 840, 113635, 100, 6, 2, 14])),
    ])
    func certificateWithoutApplesMarkerIsRejected(leaf: TestPKIMarker, intermediate: TestPKIMarker) async throws {
        let pki = try TestPKI.make(leafMarker: leaf, intermediateMarker: intermediate)
        let jws = transaction(signedAt: Fixtures.signedAt, by: Fixtures.signer(pki))

        await #expect(throws: VerificationError.invalidCertificateOID) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)
        }
    }

    @Test func chainUnderAnUntrustedRootIsRejected() async throws {
        let trusted = try TestPKI.make(name: "Trusted")
        let impostor = try TestPKI.make(name: "Impostor")
        let jws = transaction(signedAt: Fixtures.signedAt, by: Fixtures.signer(impostor))

        await #expect(throws: VerificationError.invalidChain) {
            try await Fixtures.verifier(trusting: trusted).verifyTransaction(jws)
        }
    }

    @Test func impostorChainEndingInTheTrustedRootCertificateIsRejected() async throws {
        let trusted = try TestPKI.make(name: "Trusted")
        let impostor = try TestPKI.make(name: "Impostor")
        let x5c = [impostor.x5c[0], impostor.x5c[1], trusted.x5c[2]]
        let jws = transaction(signedAt: Fixtures.signedAt, by: Fixtures.signer(impostor), header: .init(x5c: x5c))

        await #expect(throws: VerificationError.invalidChain) {
            try await Fixtures.verifier(trusting: trusted).verifyTransaction(jws)
        }
    }

    @Test func selfSignedLeafIsRejected() async throws {
        let pki = try TestPKI.make()
        let forged = try pki.selfSignedLeaf()
        let x5c = [TestPKI.base64DER(forged.certificate), pki.x5c[1], pki.x5c[2]]
        let signer = Fixtures.signer(pki)
        let jws = signer.sign(
            signer.transactionPayload(for: Fixtures.record(.nonConsumable)), header: .init(x5c: x5c),
            signingKey: forged.key)

        await #expect(throws: VerificationError.invalidChain) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)
        }
    }

    @Test func selfSignedLeafIsRejectedEvenWhenItIsATrustedRoot() async throws {
        let pki = try TestPKI.make()
        let forged = try pki.selfSignedLeaf()
        let x5c = [TestPKI.base64DER(forged.certificate), pki.x5c[1], pki.x5c[2]]
        let signer = Fixtures.signer(pki)
        let jws = signer.sign(
            signer.transactionPayload(for: Fixtures.record(.nonConsumable)), header: .init(x5c: x5c),
            signingKey: forged.key)
        let configuration = try VerifierConfiguration(
            bundleId: Fixtures.bundleId, environment: .sandbox, trustedRoots: [pki.root, forged.certificate])
        let verifier = SignedDataVerifier(configuration: configuration, logger: Fixtures.logger)

        await #expect(throws: VerificationError.invalidChain) {
            try await verifier.verifyTransaction(jws)
        }
    }

    @Test(arguments: [[0, 1], [0, 1, 2, 2], [0, 1, 2, 1], [0], []])
    func chainOfOtherThanThreeCertificatesIsRejected(positions: [Int]) async throws {
        let pki = try TestPKI.make()
        let x5c = positions.map { pki.x5c[$0] }
        let jws = transaction(signedAt: Fixtures.signedAt, by: Fixtures.signer(pki), header: .init(x5c: x5c))

        await #expect(throws: VerificationError.invalidChain) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)
        }
    }

    @Test func swappedLeafAndIntermediateAreRejected() async throws {
        let pki = try TestPKI.make()
        let x5c = [pki.x5c[1], pki.x5c[0], pki.x5c[2]]
        let jws = transaction(signedAt: Fixtures.signedAt, by: Fixtures.signer(pki), header: .init(x5c: x5c))

        await #expect(throws: VerificationError.invalidCertificateOID) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)
        }
    }

    @Test func rootInLeafPositionIsRejected() async throws {
        let pki = try TestPKI.make()
        let x5c = [pki.x5c[2], pki.x5c[1], pki.x5c[0]]
        let jws = transaction(signedAt: Fixtures.signedAt, by: Fixtures.signer(pki), header: .init(x5c: x5c))

        await #expect(throws: VerificationError.invalidCertificateOID) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)
        }
    }

    @Test(arguments: ["not base64!", "", "AAAA", "MIIB"])
    func x5cEntryThatIsNotACertificateIsRejected(entry: String) async throws {
        let pki = try TestPKI.make()
        let x5c = [pki.x5c[0], entry, pki.x5c[2]]
        let jws = transaction(signedAt: Fixtures.signedAt, by: Fixtures.signer(pki), header: .init(x5c: x5c))

        await #expect(throws: VerificationError.invalidChain) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)
        }
    }

    @Test func x5cOfTheWrongJSONTypeIsMalformed() async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        let payload = try JSONEncoder().encode(signer.transactionPayload(for: Fixtures.record(.nonConsumable)))
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "x5c": pki.x5c.joined()])

        let error = await #expect(throws: VerificationError.self) {
            try await Fixtures.verifier(trusting: pki).verifyTransaction(signer.sign(rawHeader: header, payload: payload))
        }
        #expect(error.map { $0.description.contains("x5c") } == true)
    }

    @Test func secondRootInTheConfigurationIsTrustedToo() async throws {
        let first = try TestPKI.make(name: "First")
        let second = try TestPKI.make(name: "Second")
        let configuration = try VerifierConfiguration(
            bundleId: Fixtures.bundleId, environment: .sandbox, trustedRoots: [first.root, second.root])
        let verifier = SignedDataVerifier(configuration: configuration, logger: Fixtures.logger)

        for pki in [first, second] {
            let verified = try await verifier.verifyTransaction(
                transaction(signedAt: Fixtures.signedAt, by: Fixtures.signer(pki)))
            #expect(verified.record.evidence == .jws)
        }
    }
}
