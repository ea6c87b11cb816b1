public import Foundation
import StoreSyncCore

/// The server's answer about one presented transaction or legacy flag.
///
/// A legacy `UserDefaults` flag names only a product: its verdict has empty transaction ids
/// and sets ``productId``. Empty strings rather than optionals keep the ids non-optional for
/// the common case, where every transaction has them (DESIGN §4's wire shape).
public struct Verdict: Sendable, Hashable, Codable {
    /// The purchase; empty for a legacy flag.
    public var originalTransactionId: String
    /// The presented transaction; empty for a legacy flag.
    public var transactionId: String
    /// What the server made of it.
    public var verdict: VerdictKind
    /// Why, for people and logs.
    public var reason: String?
    /// The product, set for legacy flags (and wherever it helps).
    public var productId: String?
    /// For an ``VerdictKind/ownedByOtherAccount`` verdict on a purchase that moved between
    /// accounts recently: when it may move again (the transfer cool-down ends).
    public var movableAt: Date?

    /// Creates a verdict.
    ///
    /// - Parameters:
    ///   - originalTransactionId: The purchase.
    ///   - transactionId: The transaction.
    ///   - verdict: What the server made of it.
    ///   - reason: Why.
    ///   - productId: The product.
    ///   - movableAt: When a purchase that moved recently may move again.
    public init(
        originalTransactionId: String,
        transactionId: String,
        verdict: VerdictKind,
        reason: String? = nil,
        productId: String? = nil,
        movableAt: Date? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.verdict = verdict
        self.reason = reason
        self.productId = productId
        self.movableAt = movableAt?.roundedToMilliseconds
    }

    /// The verdict on a legacy flag, which has no transaction ids.
    ///
    /// - Parameters:
    ///   - productId: The flagged product.
    ///   - verdict: Normally ``VerdictKind/known`` (confirmed) or ``VerdictKind/unverifiedClaim``.
    ///   - reason: Why.
    /// - Returns: A verdict with empty transaction ids.
    public static func legacyFlag(productId: String, verdict: VerdictKind, reason: String? = nil) -> Verdict {
        Verdict(originalTransactionId: "", transactionId: "", verdict: verdict, reason: reason, productId: productId)
    }

    /// The wire names, which StoreSyncWire's writer derives its own from.
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case originalTransactionId, transactionId, verdict, reason, productId, movableAt
    }

    /// Whether this verdict answers a legacy flag rather than a transaction.
    public var isLegacyFlag: Bool { transactionId.isEmpty && originalTransactionId.isEmpty }
}
