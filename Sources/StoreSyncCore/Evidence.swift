public import Foundation

/// What vouches for one version of a transaction.
///
/// The kinds are ordered by strength — `jws` > `receipt` > `unverifiedJWS` > `claim` >
/// ``unrecognized(kind:)`` — and the ledger's merge prefers the stronger of two versions signed at the same moment (a
/// `claim` never replaces a verified version, and a `receipt` never replaces a JWS, at all:
/// see ``TransactionRecord/preferred(_:_:)``).
/// The signed JWS itself travels beside the evidence in
/// ``TransactionRecord/signedTransaction`` rather than inside it: a snapshot signed by the
/// server vouches for its records without repeating Apple's multi-kilobyte JWS.
public enum Evidence: Sendable, Hashable {
    /// Apple's StoreKit 2 JWS, verified up to a trusted root.
    case jws
    /// An entry of a legacy app receipt that Apple's verifyReceipt endpoint confirmed.
    case receipt(verifiedAt: Date)
    /// A JWS accepted without verification by the development switch; never in production.
    case unverifiedJWS
    /// An unverified assertion, e.g. a legacy `UserDefaults` flag. Never grants by itself.
    case claim
    /// A kind a newer server wrote that this version does not know, kept as it was spelled
    /// (never one of the kinds above). Only a device reading what its server signed makes one
    /// (``Swift/CodingUserInfoKey/readsNewerServerValues``); a server refuses such a kind.
    /// It ranks below every known kind and grants nothing by itself: what the device may use
    /// is what the server's snapshot grants.
    case unrecognized(kind: String)

    /// The evidence kind's rank: higher is stronger.
    public var strength: Int {
        switch self {
        case .jws: 3
        case .receipt: 2
        case .unverifiedJWS: 1
        case .claim: 0
        case .unrecognized: -1
        }
    }

    /// Whether a record with this evidence may grant an entitlement: a known kind but a claim.
    public var grants: Bool { strength > Self.claim.strength }

    /// Whether the version's `signedDate` is when Apple signed it: true for a JWS (verified or
    /// accepted by the development switch). A receipt entry states no signing date (its
    /// `signedDate` is when verifyReceipt answered) and a claim is the device's word, so the
    /// merge ranks every version with a signing date above them (see
    /// ``TransactionRecord/preferred(_:_:)``).
    public var carriesSigningDate: Bool { self == .jws || self == .unverifiedJWS }

    /// The wire name of the evidence kind: `jws`, `receipt`, `unverifiedJWS`, `claim`, or an
    /// unrecognized kind as it was spelled.
    public var kind: String {
        switch self {
        case .jws: "jws"
        case .receipt: "receipt"
        case .unverifiedJWS: "unverifiedJWS"
        case .claim: "claim"
        case .unrecognized(let kind): kind
        }
    }

    /// When verifyReceipt confirmed a receipt entry; `nil` for every other kind.
    public var verifiedAt: Date? {
        if case .receipt(let verifiedAt) = self { verifiedAt } else { nil }
    }

    /// The evidence of a wire or column kind (``kind``); `nil` for an unknown kind (never
    /// ``unrecognized(kind:)``) and for a receipt without its `verifiedAt` (ignored for every
    /// other kind).
    ///
    /// - Parameters:
    ///   - kind: `jws`, `receipt`, `unverifiedJWS` or `claim`.
    ///   - verifiedAt: When verifyReceipt confirmed a receipt entry.
    public init?(kind: String, verifiedAt: Date?) {
        switch (kind, verifiedAt) {
        case ("jws", _): self = .jws
        case ("receipt", let verifiedAt?): self = .receipt(verifiedAt: verifiedAt)
        case ("unverifiedJWS", _): self = .unverifiedJWS
        case ("claim", _): self = .claim
        default: return nil
        }
    }
}
