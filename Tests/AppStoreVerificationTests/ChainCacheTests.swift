@testable import AppStoreVerification
import Crypto
import Foundation
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct ChainCacheTests {
    @Test func repeatedVerificationReusesOneCachedChain() async throws {
        let pki = try TestPKI.make()
        let verifier = try Fixtures.verifier(trusting: pki)
        let signer = Fixtures.signer(pki)

        for type in ProductType.allCases {
            _ = try await verifier.verifyTransaction(signer.signTransaction(Fixtures.record(type)))
        }

        #expect(verifier.chainVerifier.cache.count == 1)
    }

    /// The cache is keyed by the header's exact text: another spelling of a header with the
    /// same chain is decoded and verified in full once, and both verify.
    @Test func aHeaderWithOtherTextButTheSameChainIsVerifiedOnItsOwn() async throws {
        let pki = try TestPKI.make()
        let verifier = try Fixtures.verifier(trusting: pki)
        let signer = Fixtures.signer(pki)
        let payload = signer.transactionPayload(for: Fixtures.record(.nonConsumable))
        let plain = signer.sign(payload)
        let withKeyId = signer.sign(payload, header: AppStoreTestHeader(extra: ["kid": "another spelling"]))
        #expect(plain.split(separator: ".")[0] != withKeyId.split(separator: ".")[0])

        for jws in [plain, withKeyId, plain, withKeyId] {
            #expect(try await verifier.verifyTransaction(jws).record.evidence == .jws)
        }
        #expect(verifier.chainVerifier.cache.count == 2)
    }

    /// A cached header vouches for nothing but its own chain: a payload that was altered after
    /// signing fails on the signature even though its header is known.
    @Test func aKnownHeaderDoesNotSpareTheSignatureOfAnAlteredPayload() async throws {
        let pki = try TestPKI.make()
        let verifier = try Fixtures.verifier(trusting: pki)
        let signer = Fixtures.signer(pki)
        let genuine = signer.signTransaction(Fixtures.record(.nonConsumable))
        _ = try await verifier.verifyTransaction(genuine)

        let parts = genuine.split(separator: ".").map(String.init)
        let altered = String(signer.signTransaction(Fixtures.record(.autoRenewable)).split(separator: ".")[1])
        await #expect(throws: VerificationError.invalidSignature) {
            try await verifier.verifyTransaction([parts[0], altered, parts[2]].joined(separator: "."))
        }
    }

    @Test func rejectedChainIsNeverCached() async throws {
        let trusted = try TestPKI.make(name: "Trusted")
        let impostor = try TestPKI.make(name: "Impostor")
        let verifier = try Fixtures.verifier(trusting: trusted)

        for _ in 0..<2 {
            await #expect(throws: VerificationError.invalidChain) {
                try await verifier.verifyTransaction(Fixtures.signer(impostor).signTransaction(Fixtures.record(.nonConsumable)))
            }
        }
        #expect(verifier.chainVerifier.cache.count == 0)
    }

    @Test func cachedChainStillJudgesValidityAtEachSignedDate() async throws {
        let start = Date(timeIntervalSince1970: 1_704_067_200)
        let end = Date(timeIntervalSince1970: 1_735_689_600)
        let pki = try TestPKI.make(leafValidity: start...end)
        let verifier = try Fixtures.verifier(trusting: pki)
        let signer = Fixtures.signer(pki)
        _ = try await verifier.verifyTransaction(
            signer.signTransaction(Fixtures.record(.nonConsumable, signedDate: Date(timeIntervalSince1970: 1_720_000_000))))

        await #expect(throws: VerificationError.certificateExpired) {
            try await verifier.verifyTransaction(signer.signTransaction(Fixtures.record(.nonConsumable, signedDate: end + 1)))
        }
        #expect(verifier.chainVerifier.cache.count == 1)
    }

    @Test func cachedChainStillChecksEverySignature() async throws {
        let pki = try TestPKI.make()
        let verifier = try Fixtures.verifier(trusting: pki)
        let signer = Fixtures.signer(pki)
        _ = try await verifier.verifyTransaction(signer.signTransaction(Fixtures.record(.nonConsumable)))

        let forged = signer.sign(
            signer.transactionPayload(for: Fixtures.record(.consumable)), signingKey: P256.Signing.PrivateKey())
        await #expect(throws: VerificationError.invalidSignature) { try await verifier.verifyTransaction(forged) }
    }

    @Test func cacheEvictsTheOldestChainBeyondCapacity() throws {
        let cache = VerifiedChainCache(capacity: 2)
        let chain = VerifiedChain(
            validity: Date.distantPast...Date.distantFuture, leafKey: P256.Signing.PrivateKey().publicKey,
            header: JWSHeader(alg: "ES256"))
        let keys = (0..<3).map { SHA256.hash(data: Data([UInt8($0)])) }

        for key in keys { cache.insert(chain, fingerprint: key) }

        #expect(cache.count == 2)
        #expect(cache[keys[0]] == nil)
        #expect(cache[keys[1]] != nil)
        #expect(cache[keys[2]] != nil)
    }

    @Test func concurrentVerificationsAgree() async throws {
        let pki = try TestPKI.make()
        let verifier = try Fixtures.verifier(trusting: pki)
        let jws = Fixtures.signer(pki).signTransaction(Fixtures.record(.autoRenewable))

        let evidences = try await withThrowingTaskGroup(of: Evidence.self) { group in
            for _ in 0..<32 { group.addTask { try await verifier.verifyTransaction(jws).record.evidence } }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(evidences == Array(repeating: .jws, count: 32))
        #expect(verifier.chainVerifier.cache.count == 1)
    }
}
