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

    /// A chain is cached once a signature it carries verified: Apple's public chain in headers
    /// spelled anew, each under a forged signature, fills nothing and evicts nothing.
    @Test func aValidChainUnderAForgedSignatureIsNotCached() async throws {
        let pki = try TestPKI.make()
        let verifier = try Fixtures.verifier(trusting: pki)
        let signer = Fixtures.signer(pki)
        let payload = signer.transactionPayload(for: Fixtures.record(.nonConsumable))
        let genuine = signer.sign(payload)
        _ = try await verifier.verifyTransaction(genuine)
        let otherSignature = genuine.split(separator: ".")[2]

        for spelling in 0..<100 {
            let respelled = signer.sign(payload, header: AppStoreTestHeader(extra: ["kid": "spelling \(spelling)"]))
            let parts = respelled.split(separator: ".")
            let forged = "\(parts[0]).\(parts[1]).\(otherSignature)"
            await #expect(throws: VerificationError.invalidSignature) { try await verifier.verifyTransaction(forged) }
        }

        #expect(verifier.chainVerifier.cache.count == 1, "only the genuine chain")
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
        let headers = (0..<3).map { Array("header\($0).".utf8) }

        for header in headers { cache.insert(Self.chain(headerText: header)) }

        #expect(cache.count == 2)
        #expect(Self.cached(headers[0], in: cache) == nil)
        #expect(Self.cached(headers[1], in: cache)?.headerText == headers[1])
        #expect(Self.cached(headers[2], in: cache)?.headerText == headers[2])
    }

    /// Two restores that meet a new chain at once both verify it: the second takes the first's
    /// place instead of filling the cache with copies.
    @Test func aChainVerifiedTwiceIsKeptOnce() throws {
        let cache = VerifiedChainCache(capacity: 4)
        let header = Array("header.".utf8)

        cache.insert(Self.chain(headerText: header))
        cache.insert(Self.chain(headerText: header))

        #expect(cache.count == 1)
    }

    /// A chain is found only by its header's exact bytes: not by a prefix, an extension, or a
    /// header one byte away.
    @Test(arguments: ["eyJhbGciOiJFUzI1NiJ8.", "eyJhbGciOiJFUzI1NiJ9", "eyJhbGciOiJFUzI1NiJ9.e", "fyJhbGciOiJFUzI1NiJ9.", ""])
    func aHeaderIsFoundOnlyByItsExactBytes(other: String) throws {
        let cache = VerifiedChainCache(capacity: 4)
        let header = Array("eyJhbGciOiJFUzI1NiJ9.".utf8)
        cache.insert(Self.chain(headerText: header))

        #expect(Self.cached(header, in: cache)?.headerText == header)
        #expect(Self.cached(Array(other.utf8), in: cache) == nil)
    }

    /// A header one byte away from a cached chain's is refused: the cached chain never vouches
    /// for it, and it takes no place in the cache.
    @Test func aHeaderOneByteAwayFromACachedOneIsRefused() async throws {
        let trusted = try TestPKI.make(name: "Trusted")
        let verifier = try Fixtures.verifier(trusting: trusted)
        let genuine = Fixtures.signer(trusted).signTransaction(Fixtures.record(.nonConsumable))
        _ = try await verifier.verifyTransaction(genuine)

        // A letter of the leaf certificate's base64, deep in the header, changed to another.
        var bytes = Array(genuine.utf8)
        let position = bytes.firstIndex(of: UInt8(ascii: "."))! / 2
        bytes[position] = bytes[position] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        await #expect(throws: VerificationError.self) {
            try await verifier.verifyTransaction(String(decoding: bytes, as: UTF8.self))
        }
        #expect(verifier.chainVerifier.cache.count == 1)
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

    private static func chain(headerText: [UInt8]) -> VerifiedChain {
        VerifiedChain(
            validity: Date.distantPast...Date.distantFuture, leafKey: P256.Signing.PrivateKey().publicKey,
            header: JWSHeader(alg: "ES256"), headerText: headerText)
    }

    private static func cached(_ header: [UInt8], in cache: VerifiedChainCache) -> VerifiedChain? {
        header.withUnsafeBufferPointer { cache.chain(forHeader: $0) }
    }
}
