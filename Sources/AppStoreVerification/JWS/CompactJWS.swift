import AppStorePayloads
/// A compact JWS split into its parts, with its header decoded and checked.
///
/// Parsing checks only the form (three strict base64url parts, a JSON header, `ES256`);
/// nothing here says the token is trustworthy.
struct CompactJWS: Sendable {
    /// Larger than any payload Apple signs (a few KiB) with room to spare; anything bigger
    /// is refused before any work is spent on it.
    static let maximumLength = 64 * 1024

    let header: JWSHeader
    /// The decoded payload bytes (UTF-8 JSON).
    let payload: [UInt8]
    /// The decoded signature bytes: raw r‖s for ES256.
    let signature: [UInt8]
    /// `base64url(header) "." base64url(payload)`: the bytes the signature covers.
    let signingInput: [UInt8]

    /// Splits and decodes a compact JWS.
    ///
    /// - Parameter text: The compact serialisation.
    /// - Throws: ``VerificationError/malformed(_:)`` for anything that is not a compact JWS
    ///   with a JSON header, ``VerificationError/unsupportedAlgorithm(_:)`` unless `ES256`.
    init(_ text: String) throws(VerificationError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maximumLength else {
            throw .malformed("the JWS is larger than \(Self.maximumLength) bytes")
        }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("a compact JWS has three dot-separated parts") }
        guard !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
            throw .malformed("a part of the JWS is empty")
        }
        guard let headerBytes = Base64URL.decode(parts[0]) else { throw .malformed("the header is not base64url") }
        guard let payload = Base64URL.decode(parts[1]) else { throw .malformed("the payload is not base64url") }
        guard let signature = Base64URL.decode(parts[2]) else { throw .malformed("the signature is not base64url") }

        let header = try translatingPayloadErrors { () throws(PayloadError) in try PayloadDecoder.decode(JWSHeader.self, from: headerBytes, part: "header") }
        guard header.alg == "ES256" else { throw .unsupportedAlgorithm(header.alg) }
        if let crit = header.crit, !crit.isEmpty {
            throw .malformed("the header names critical parameters this verifier does not understand")
        }
        self.header = header
        self.payload = payload
        self.signature = signature
        self.signingInput = Array(bytes[..<parts[1].endIndex])
    }
}
