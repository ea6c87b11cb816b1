@testable import AppStoreVerification
import Crypto
import Foundation
import StoreSyncCore
import StoreSyncTesting
import Testing

/// A restore holds its texts split after their headers (``SignedText``) and verifies them so,
/// without joining them again: a text split anywhere is read, verified or refused exactly as
/// the whole text is, whether its chain is new to the verifier or cached.
@Suite struct SplitTextVerificationTests {
    @Test func aSplitTextVerifiesAsTheWholeTextDoes() async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        let verifier = try Fixtures.verifier(trusting: pki)

        for type in ProductType.allCases {
            let jws = signer.signTransaction(Fixtures.record(type))
            let split = SignedText.splitting(jws)
            guard case .split = split.layout else {
                Issue.record("the text was not split")
                continue
            }
            let whole = try await Fixtures.verifier(trusting: pki).verifyTransaction(jws)
            // The first type meets the chain new, the others cached.
            let verified = try await verifier.verifyTransaction(split)

            #expect(verified.record == whole.record)
            #expect(verified.record.signedText === split)
            #expect(verified.record.evidence == .jws)
        }
        #expect(verifier.chainVerifier.cache.count == 1)
    }

    /// Another payload under a genuine header and signature is refused split as whole, with the
    /// chain new or cached: the signature covers the header's bytes and the payload's.
    @Test(arguments: [false, true])
    func aSplitTextWithAnotherPayloadIsRefused(chainCached: Bool) async throws {
        let (signer, verifier, genuine) = try await Self.genuineText(chainCached: chainCached)

        let parts = genuine.split(separator: ".").map(String.init)
        let other = String(signer.signTransaction(Fixtures.record(.autoRenewable)).split(separator: ".")[1])
        let altered = SignedText.splitting([parts[0], other, parts[2]].joined(separator: "."))
        await #expect(throws: VerificationError.invalidSignature) { try await verifier.verifyTransaction(altered) }
    }

    /// The digest the signature is checked against is the SHA-256 of `header.payload`, whether
    /// it was carried on from a cached chain's header or hashed whole.
    @Test func theSignedDigestIsThatOfTheHeaderAndPayload() async throws {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        let verifier = try Fixtures.verifier(trusting: pki)
        let jws = signer.signTransaction(Fixtures.record(.consumable))
        let signingInput = Array(jws.utf8[..<jws.utf8.lastIndex(of: UInt8(ascii: "."))!])
        let expected = SHA256.hash(data: signingInput)

        let cold = try CompactJWS(SignedText.splitting(jws), verifiedChains: verifier.chainVerifier.cache)
        _ = try await verifier.verifyTransaction(jws)
        let warm = try CompactJWS(SignedText.splitting(jws), verifiedChains: verifier.chainVerifier.cache)

        #expect(cold.knownChain == nil)
        #expect(warm.knownChain != nil)
        #expect(cold.signingInputDigest == expected)
        #expect(warm.signingInputDigest == expected)
    }

    /// Every text, well formed or not, split at every place (a header with its dot, as a
    /// restore splits, and anywhere else), reads as the whole text does: the same parts and
    /// digest, or the same refusal.
    @Test(arguments: [false, true])
    func aTextSplitAnywhereReadsAsTheWholeText(chainCached: Bool) async throws {
        let (_, verifier, genuine) = try await Self.genuineText(chainCached: chainCached)
        let cache = verifier.chainVerifier.cache
        let (header, payload, signature) = Self.parts(of: genuine)
        let texts = [
            genuine, "\(header).\(payload)", "\(header).\(payload).", "\(header)..\(signature)",
            "\(header).\(payload).\(signature).", "\(header).\(payload).\(signature).x", ".\(payload).\(signature)",
            "\(header).\(payload).\(signature)A", "\(header)x.\(payload).\(signature)", "", ".", "..", "a.b", "a.b.c.d",
            "eyJhbGciOiJFUzI1NiJ9.e30.AA==", "bm90IGpzb24.e30.AAAA", "e30.e30.AAAA",
        ]

        for text in texts {
            let bytes = Array(text.utf8)
            let whole = Self.read(head: bytes[...], rest: [], cache: cache)
            let dot = bytes.firstIndex(of: UInt8(ascii: ".")) ?? 0
            let places = Set([0, 1, dot, dot + 1, dot + 2, bytes.count / 2, bytes.count - 1, bytes.count])
            for place in places where (0...bytes.count).contains(place) {
                let split = Self.read(head: bytes[..<place], rest: bytes[place...], cache: cache)
                #expect(split == whole, "\(text.prefix(40)) split at \(place)")
            }
        }
    }

    /// What reading a text gives, for comparing.
    private enum Reading: Equatable {
        case parts(payload: [UInt8], signature: [UInt8], digest: SHA256Digest, alg: String, x5c: [String]?, known: Bool)
        case refused(VerificationError)
    }

    private static func read(head: ArraySlice<UInt8>, rest: ArraySlice<UInt8>, cache: VerifiedChainCache) -> Reading {
        let head = Array(head)
        let rest = Array(rest)
        return head.withUnsafeBufferPointer { head in
            rest.withUnsafeBufferPointer { rest in
                do throws(VerificationError) {
                    let jws = try CompactJWS(head: head, rest: rest, verifiedChains: cache)
                    return .parts(
                        payload: jws.payload, signature: jws.signature, digest: jws.signingInputDigest,
                        alg: jws.header.alg, x5c: jws.header.x5c, known: jws.knownChain != nil)
                } catch {
                    return .refused(error)
                }
            }
        }
    }

    /// A signer, a verifier trusting it, and a genuine signed transaction, whose chain the
    /// verifier has cached (from the text split) when `chainCached`.
    private static func genuineText(chainCached: Bool) async throws
        -> (signer: AppStoreTestSigner, verifier: SignedDataVerifier, jws: String)
    {
        let pki = try TestPKI.make()
        let signer = Fixtures.signer(pki)
        let verifier = try Fixtures.verifier(trusting: pki)
        let genuine = signer.signTransaction(Fixtures.record(.nonConsumable))
        if chainCached { _ = try await verifier.verifyTransaction(SignedText.splitting(genuine)) }
        return (signer, verifier, genuine)
    }

    private static func parts(of jws: String) -> (String, String, String) {
        let parts = jws.split(separator: ".").map(String.init)
        return (parts[0], parts[1], parts[2])
    }
}
