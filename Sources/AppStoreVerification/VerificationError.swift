import AppStorePayloads
/// Why a signed App Store payload was not accepted.
///
/// Every case is a rejection of the input, never a crash: the caller can map each to a
/// client error. The trust failures (``invalidChain``, ``invalidCertificateOID``,
/// ``certificateExpired``, ``invalidSignature``) are the ones the development switch may
/// tolerate; the others are always fatal.
public enum VerificationError: Error, Sendable, Hashable {
    /// The text is not a compact JWS, a part is not strict base64url, the JSON is not
    /// Apple's shape (a field of the wrong type, a required field missing), or it is too large.
    case malformed(String)
    /// The header's `alg` is anything but `ES256` (e.g. `none`, `HS256`, `ES384`).
    case unsupportedAlgorithm(String)
    /// The `x5c` chain is missing, not three certificates, unparsable, or does not lead to
    /// a trusted root.
    case invalidChain
    /// The leaf or intermediate certificate lacks Apple's marker extension.
    case invalidCertificateOID
    /// A certificate of the chain was not valid at the payload's `signedDate`.
    case certificateExpired
    /// The ES256 signature does not match the leaf certificate's key.
    case invalidSignature
    /// The payload belongs to another app's bundle id.
    case bundleMismatch
    /// The payload was signed for another environment than the one configured.
    case environmentMismatch
    /// A production notification names another app's Apple id.
    case appAppleIdMismatch

    /// Whether this failure is about trust in the signature rather than about the
    /// payload's shape or claims: the failures the development switch tolerates.
    public var isTrustFailure: Bool {
        switch self {
        case .invalidChain, .invalidCertificateOID, .certificateExpired, .invalidSignature: true
        case .malformed, .unsupportedAlgorithm, .bundleMismatch, .environmentMismatch, .appAppleIdMismatch: false
        }
    }
}

extension VerificationError: CustomStringConvertible {
    /// A sentence that says what was wrong, safe to show to the client that sent the data.
    public var description: String {
        switch self {
        case .malformed(let detail): "malformed signed data: \(detail)"
        case .unsupportedAlgorithm(let alg): "unsupported JWS algorithm \"\(alg)\": only ES256 is accepted"
        case .invalidChain: "the x5c certificate chain does not lead to a trusted root"
        case .invalidCertificateOID: "a certificate of the chain lacks Apple's marker extension"
        case .certificateExpired: "a certificate of the chain was not valid when the data was signed"
        case .invalidSignature: "the signature does not match the signing certificate"
        case .bundleMismatch: "the signed data belongs to another bundle id"
        case .environmentMismatch: "the signed data comes from another App Store environment"
        case .appAppleIdMismatch: "the signed data belongs to another app (appAppleId)"
        }
    }
}

extension VerificationError {
    /// The verifier's view of a payload that could not be read.
    init(_ error: PayloadError) {
        switch error {
        case .malformed(let detail): self = .malformed(detail)
        }
    }
}

/// Runs payload decoding and reports its failure as a ``VerificationError``.
func translatingPayloadErrors<T>(_ body: () throws(PayloadError) -> T) throws(VerificationError) -> T {
    do {
        return try body()
    } catch {
        throw VerificationError(error)
    }
}
