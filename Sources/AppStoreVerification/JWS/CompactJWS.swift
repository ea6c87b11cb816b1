import AppStorePayloads
import Crypto

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
/// ~4.5 KB of base64) is most of a JWS.
struct CompactJWS: Sendable {
    /// Larger than any payload Apple signs (a few KiB) with room to spare; anything bigger
    /// is refused before any work is spent on it.
    static let maximumLength = 64 * 1024

    let header: JWSHeader
    /// The SHA-256 of the header's base64url text: the key of its verified chain.
    let headerDigest: SHA256Digest
    /// The decoded payload bytes (UTF-8 JSON).
    let payload: [UInt8]
    /// The decoded signature bytes: raw r‖s for ES256.
    let signature: [UInt8]
    /// `base64url(header) "." base64url(payload)`: the bytes the signature covers, a slice of
    /// the text's bytes rather than a copy (several KB per token, each a trip to the
    /// allocator's shared arenas while every core verifies).
    let signingInput: ArraySlice<UInt8>

    /// Splits and decodes a compact JWS.
    ///
    /// - Parameters:
    ///   - text: The compact serialisation.
    ///   - verifiedChains: Chains verified before, whose headers need no decoding again.
    /// - Throws: ``VerificationError/malformed(_:)`` for anything that is not a compact JWS
    ///   with a JSON header, ``VerificationError/unsupportedAlgorithm(_:)`` unless `ES256`.
    init(_ text: String, verifiedChains: VerifiedChainCache? = nil) throws(VerificationError) {
        let bytes = Array(text.utf8)
        let parts = try Self.parts(of: bytes)
        let headerDigest = bytes[parts.header].withUnsafeBytes { SHA256.hash(data: $0) }
        let header: JWSHeader
        if let known = verifiedChains?[headerDigest] {
            header = known.header
        } else {
            header = try Self.decodeHeader(bytes[parts.header])
        }
        guard let payload = Base64URL.decode(bytes[parts.payload]) else { throw .malformed("the payload is not base64url") }
        guard let signature = Base64URL.decode(bytes[parts.signature]) else {
            throw .malformed("the signature is not base64url")
        }
        self.header = header
        self.headerDigest = headerDigest
        self.payload = payload
        self.signature = signature
        self.signingInput = bytes[..<parts.payload.upperBound]
    }

    /// Where a compact JWS's three parts lie, after checking its form: at most
    /// ``maximumLength`` bytes, exactly two dots, no part empty.
    private static func parts(of bytes: [UInt8]) throws(VerificationError)
        -> (header: Range<Int>, payload: Range<Int>, signature: Range<Int>)
    {
        guard bytes.count <= maximumLength else { throw .malformed("the JWS is larger than \(maximumLength) bytes") }
        let dots = bytes.withUnsafeBufferPointer { buffer in
            let first = dot(in: buffer, from: 0)
            let second = first.flatMap { dot(in: buffer, from: $0 + 1) }
            return (first, second, second.flatMap { dot(in: buffer, from: $0 + 1) })
        }
        guard let first = dots.0, let second = dots.1, dots.2 == nil else {
            throw .malformed("a compact JWS has three dot-separated parts")
        }
        guard first > 0, second > first + 1, second < bytes.count - 1 else { throw .malformed("a part of the JWS is empty") }
        return (0..<first, (first + 1)..<second, (second + 1)..<bytes.count)
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
    private static func decodeHeader(_ text: ArraySlice<UInt8>) throws(VerificationError) -> JWSHeader {
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
