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
        let chain = VerifiedChain(validity: Date.distantPast...Date.distantFuture, leafKey: P256.Signing.PrivateKey().publicKey)
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
