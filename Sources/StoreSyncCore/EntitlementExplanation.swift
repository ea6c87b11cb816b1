public import Foundation

/// Why one purchase grants, or does not grant, one entitlement: which chain and which record
/// decided it, for verdict reasons and support tooling.
public struct EntitlementExplanation: Sendable, Hashable, Codable {
    /// What the purchase amounts to for the entitlement.
    public enum Outcome: String, Sendable, Hashable, Codable, CaseIterable {
        /// The purchase grants the entitlement and is its chosen source.
        case granted
        /// The purchase would grant it, but another source wins (lifetime, or a later expiry).
        case superseded
        /// A non-renewing purchase waiting its turn: it extends a stack that is running now.
        case queued
        /// Apple revoked a verified record of the purchase (refund, Family Sharing ended).
        case revoked
        /// The paid period (and any grace period, or stacked period) ended at or before `at`.
        case expired
        /// The subscription was upgraded to another product of its group.
        case upgraded
        /// The purchase was made after the evaluation time.
        case notYetStarted
        /// A consumable: recorded for history, never an entitlement.
        case consumable
        /// Only unverified claims mention the purchase; a claim never grants.
        case claimOnly
        /// The catalog does not define the product.
        case unknownProduct
        /// Apple's record and the catalog disagree about the kind of product.
        case productTypeMismatch
        /// A non-renewing product without a positive `durationSeconds` in the catalog.
        case missingDuration
        /// The catalog defines the product but lists no entitlement for it.
        case noEntitlement
    }

    /// The entitlement id; `nil` when the product is unknown to the catalog or grants none.
    public var entitlementId: String?
    /// The product the purchase is for (for a subscription, the product its deciding record names).
    public var productId: String
    /// The purchase (chain).
    public var originalTransactionId: String
    /// The record that decided the outcome.
    public var decidingTransactionId: String?
    /// What the purchase amounts to for the entitlement.
    public var outcome: Outcome
    /// When access ends or ended; `nil` for lifetime or when no end applies.
    public var expiresAt: Date?
    /// A sentence for people: what decided it and why.
    public var reason: String

    /// Creates an explanation; the expiry is rounded to whole milliseconds.
    ///
    /// - Parameters:
    ///   - entitlementId: The entitlement id, `nil` when there is none.
    ///   - productId: The product.
    ///   - originalTransactionId: The purchase.
    ///   - decidingTransactionId: The deciding record.
    ///   - outcome: What the purchase amounts to.
    ///   - expiresAt: The end of access.
    ///   - reason: The human-readable reason.
    public init(
        entitlementId: String?,
        productId: String,
        originalTransactionId: String,
        decidingTransactionId: String?,
        outcome: Outcome,
        expiresAt: Date?,
        reason: String
    ) {
        self.entitlementId = entitlementId
        self.productId = productId
        self.originalTransactionId = originalTransactionId
        self.decidingTransactionId = decidingTransactionId
        self.outcome = outcome
        self.expiresAt = expiresAt?.roundedToMilliseconds
        self.reason = reason
    }
}
