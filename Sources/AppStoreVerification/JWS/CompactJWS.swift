import AppStorePayloads
import Crypto
import StoreSyncCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A compact JWS split into its parts, with its header decoded and checked.
///
/// Parsing checks only the form (three strict base64url parts, a JSON header, `ES256`);
/// nothing here says the token is trustworthy. A header whose exact text belongs to a chain
/// that verified before is taken from the cache instead of being decoded again: Apple signs
/// every transaction of a period with the same chain, and the header (three certificates,
/// ~4.5 KB of base64) is most of a JWS. The cache also keeps the SHA-256 state after that
/// header, so the digest the signature covers costs only the payload's bytes.
struct CompactJWS: Sendable {
    /// Larger than any payload Apple signs (a few KiB) with room to spare; anything bigger
    /// is refused before any work is spent on it.
    static let maximumLength = 64 * 1024

    let header: JWSHeader
    /// The chain that verified before with this exact header text; `nil` when the header is
    /// new here, and its chain is still to be verified.
    let knownChain: VerifiedChain?
    /// `base64url(header) "."`: the bytes a cached chain is found by, and the start of the
    /// signing input. Empty when the chain is known (it holds them).
    let headerText: [UInt8]
    /// The SHA-256 state after ``headerText``.
    let hashedHeader: SHA256
    /// The decoded payload bytes (UTF-8 JSON).
    let payload: [UInt8]
    /// The decoded signature bytes: raw r‖s for ES256.
    let signature: [UInt8]
    /// The SHA-256 of `base64url(header) "." base64url(payload)`: what the signature covers.
    let signingInputDigest: SHA256Digest

    /// Splits and decodes a compact JWS.
    ///
    /// - Parameters:
    ///   - text: The compact serialisation.
    ///   - verifiedChains: Chains verified before, whose headers need no decoding again.
    /// - Throws: ``VerificationError/malformed(_:)`` for anything that is not a compact JWS
    ///   with a JSON header, ``VerificationError/unsupportedAlgorithm(_:)`` unless `ES256`.
    init(_ text: String, verifiedChains: VerifiedChainCache? = nil) throws(VerificationError) {
        try self.init(SignedText(whole: text), verifiedChains: verifiedChains)
    }

    /// Splits and decodes a compact JWS however it is held (``StoreSyncCore/SignedText``).
    ///
    /// - Throws: As ``init(_:verifiedChains:)``.
    init(_ text: SignedText, verifiedChains: VerifiedChainCache? = nil) throws(VerificationError) {
        let parsed = text.withParts { head, rest in
            Result { () throws(VerificationError) in try CompactJWS(head: head, rest: rest, verifiedChains: verifiedChains) }
        }
        self = try parsed.get()
    }

    /// Splits and decodes a compact JWS held in two parts, `head` then `rest` (a text split
    /// after its header, ``StoreSyncCore/SignedText``), without joining them.
    ///
    /// - Parameters:
    ///   - head: The text's first bytes: its header with the dot, or the whole text.
    ///   - rest: The bytes that follow `head`.
    ///   - verifiedChains: Chains verified before, whose headers need no decoding again.
    /// - Throws: As ``init(_:verifiedChains:)``, for the text the two parts make.
    init(
        head: UnsafeBufferPointer<UInt8>, rest: UnsafeBufferPointer<UInt8>, verifiedChains: VerifiedChainCache? = nil
    ) throws(VerificationError) {
        guard head.count + rest.count <= Self.maximumLength else {
            throw .malformed("the JWS is larger than \(Self.maximumLength) bytes")
        }
        guard let parts = try Self.parts(head: head, rest: rest) else {
            // A header that does not end where `head` does: parsed as one text.
            let joined = Array(head) + Array(rest)
            self = try joined.withUnsafeBufferPointer { whole throws(VerificationError) in
                try CompactJWS(head: whole, rest: UnsafeBufferPointer(start: nil, count: 0), verifiedChains: verifiedChains)
            }
            return
        }
        if let known = verifiedChains?.chain(forHeader: parts.headerWithDot) {
            header = known.header
            knownChain = known
            headerText = []
            hashedHeader = known.hashedHeader
        } else {
            header = try Self.decodeHeader(UnsafeBufferPointer(rebasing: parts.headerWithDot.dropLast()))
            knownChain = nil
            headerText = Array(parts.headerWithDot)
            var hasher = SHA256()
            hasher.update(bufferPointer: UnsafeRawBufferPointer(parts.headerWithDot))
            hashedHeader = hasher
        }
        var hasher = hashedHeader
        hasher.update(bufferPointer: UnsafeRawBufferPointer(parts.payload))
        signingInputDigest = hasher.finalize()
        guard let payload = Base64URL.decode(parts.payload) else { throw .malformed("the payload is not base64url") }
        guard let signature = Base64URL.decode(parts.signature) else { throw .malformed("the signature is not base64url") }
        self.payload = payload
        self.signature = signature
    }

    /// A JWS's three parts, after checking its form: exactly two dots, no part empty. The
    /// header comes with its dot. `nil` when `rest` is not empty and `head` is not exactly a
    /// header with its dot, so that a part would span the two.
    private static func parts(head: UnsafeBufferPointer<UInt8>, rest: UnsafeBufferPointer<UInt8>) throws(VerificationError)
        -> (headerWithDot: UnsafeBufferPointer<UInt8>, payload: UnsafeBufferPointer<UInt8>, signature: UnsafeBufferPointer<UInt8>)?
    {
        let afterHeader: UnsafeBufferPointer<UInt8>
        let headerEnd: Int
        if rest.isEmpty {
            guard let first = dot(in: head, from: 0) else { throw .malformed("a compact JWS has three dot-separated parts") }
            headerEnd = first + 1
            afterHeader = UnsafeBufferPointer(rebasing: head[headerEnd...])
        } else {
            guard let first = dot(in: head, from: 0), first == head.count - 1 else { return nil }
            headerEnd = head.count
            afterHeader = rest
        }
        guard let second = dot(in: afterHeader, from: 0), dot(in: afterHeader, from: second + 1) == nil else {
            throw .malformed("a compact JWS has three dot-separated parts")
        }
        guard headerEnd > 1, second > 0, second < afterHeader.count - 1 else { throw .malformed("a part of the JWS is empty") }
        return (
            UnsafeBufferPointer(rebasing: head[..<headerEnd]),
            UnsafeBufferPointer(rebasing: afterHeader[..<second]),
            UnsafeBufferPointer(rebasing: afterHeader[(second + 1)...])
        )
    }

    /// The index of the first `.` at or after `start`, found by `memchr`: the header alone is
    /// ~4.5 KB, and a loop over it cost as much as decoding the payload.
    private static func dot(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(UInt8(ascii: ".")), bytes.count - start)
        else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// Decodes and checks a header's base64url text.
    private static func decodeHeader(_ text: UnsafeBufferPointer<UInt8>) throws(VerificationError) -> JWSHeader {
        guard let headerBytes = Base64URL.decode(text) else { throw .malformed("the header is not base64url") }
        let header = try translatingPayloadErrors { () throws(PayloadError) in
            try PayloadDecoder.decode(JWSHeader.self, from: headerBytes, part: "header")
        }
        guard header.alg == "ES256" else { throw .unsupportedAlgorithm(header.alg) }
        if let crit = header.crit, !crit.isEmpty {
            throw .malformed("the header names critical parameters this verifier does not understand")
        }
        return header
    }
}
