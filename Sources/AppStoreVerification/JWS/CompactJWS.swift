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
    /// `base64url(header) "." base64url(payload)`: the bytes the signature covers.
    let signingInput: [UInt8]

    /// Splits and decodes a compact JWS.
    ///
    /// - Parameters:
    ///   - text: The compact serialisation.
    ///   - verifiedChains: Chains verified before, whose headers need no decoding again.
    /// - Throws: ``VerificationError/malformed(_:)`` for anything that is not a compact JWS
    ///   with a JSON header, ``VerificationError/unsupportedAlgorithm(_:)`` unless `ES256`.
    init(_ text: String, verifiedChains: VerifiedChainCache? = nil) throws(VerificationError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maximumLength else {
            throw .malformed("the JWS is larger than \(Self.maximumLength) bytes")
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("a compact JWS has three dot-separated parts") }
        guard !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
            throw .malformed("a part of the JWS is empty")
        }
        let headerDigest = parts[0].withUnsafeBytes { SHA256.hash(data: $0) }
        let header: JWSHeader
        if let known = verifiedChains?[headerDigest] {
            header = known.header
        } else {
            header = try Self.decodeHeader(parts[0])
        }
        guard let payload = Base64URL.decode(parts[1]) else { throw .malformed("the payload is not base64url") }
        guard let signature = Base64URL.decode(parts[2]) else { throw .malformed("the signature is not base64url") }
        self.header = header
        self.headerDigest = headerDigest
        self.payload = payload
        self.signature = signature
        self.signingInput = Array(bytes[..<parts[1].endIndex])
    }

    /// The decoded payload of a compact JWS, its header and signature left alone: for a text
    /// that verified before (``SignedDataVerifier/transaction(verifiedBefore:)``).
    ///
    /// - Throws: ``VerificationError/malformed(_:)`` unless the text has the form of a compact
    ///   JWS and its payload is base64url.
    static func payload(of text: String) throws(VerificationError) -> [UInt8] {
        var text = text
        // Straight over the UTF-8 buffer: splitting `String.UTF8View` generically walked the
        // ~6 KB one index at a time and cost more than the rest of decoding.
        let payload = text.withUTF8 { bytes -> Result<[UInt8], VerificationError> in
            guard bytes.count <= maximumLength else { return .failure(.malformed("the JWS is larger than \(maximumLength) bytes")) }
            guard let first = Self.dot(in: bytes, from: 0), let second = Self.dot(in: bytes, from: first + 1),
                Self.dot(in: bytes, from: second + 1) == nil, first > 0, second > first + 1, second < bytes.count - 1
            else { return .failure(.malformed("a compact JWS has three non-empty dot-separated parts")) }
            guard let payload = Base64URL.decode(UnsafeBufferPointer(rebasing: bytes[(first + 1)..<second])) else {
                return .failure(.malformed("the payload is not base64url"))
            }
            return .success(payload)
        }
        return try payload.get()
    }

    /// The index of the first `.` at or after `start`, found by `memchr` (the header alone is
    /// ~4.5 KB; a loop over it cost as much as decoding the payload).
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
