public import Foundation

/// Access the account has right now to one entitlement id, and where it comes from.
public struct Entitlement: Sendable, Hashable, Codable {
    /// The entitlement id of the catalog, e.g. `premium`.
    public var entitlementId: String
    /// The product that grants it.
    public var productId: String
    /// The purchase (chain) that grants it.
    public var originalTransactionId: String
    /// When access ends; `nil` means lifetime.
    public var expiresAt: Date?
    /// Purchased by the account or shared with it through Family Sharing.
    public var ownershipType: OwnershipType
    /// The kind of product that grants it.
    public var source: ProductType
    /// The App Store environment of the purchase that grants it: `sandbox` for what App Review
    /// and TestFlight testers buy against a production app.
    public var environment: AppStoreEnvironment

    /// Creates an entitlement; the expiry is rounded to whole milliseconds.
    ///
    /// - Parameters:
    ///   - entitlementId: The entitlement id.
    ///   - productId: The granting product.
    ///   - originalTransactionId: The granting purchase.
    ///   - expiresAt: The end of access, `nil` for lifetime.
    ///   - ownershipType: Purchased or family-shared.
    ///   - source: The kind of the granting product.
    ///   - environment: The environment of the granting purchase.
    public init(
        entitlementId: String,
        productId: String,
        originalTransactionId: String,
        expiresAt: Date?,
        ownershipType: OwnershipType,
        source: ProductType,
        environment: AppStoreEnvironment
    ) {
        self.entitlementId = entitlementId
        self.productId = productId
        self.originalTransactionId = originalTransactionId
        self.expiresAt = expiresAt?.roundedToMilliseconds
        self.ownershipType = ownershipType
        self.source = source
        self.environment = environment
    }

    /// The wire names, which StoreSyncWire's canonical writer derives its own from.
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case entitlementId, productId, originalTransactionId, expiresAt, ownershipType, source, environment
    }

    /// Whether access never ends.
    public var isLifetime: Bool { expiresAt == nil }

    /// Decodes an entitlement; an absent `ownershipType` reads as `purchased` and an absent
    /// `environment` as `production`, as in a ``TransactionRecord``. Members it does not know
    /// are ignored, so a newer server may add some.
    ///
    /// A decoder that ``Swift/CodingUserInfoKey/readsNewerServerValues`` (a device reading its
    /// server's snapshot) reads an ownership type or environment it does not know as those
    /// same values: the server granted the entitlement, and it still grants. Any other decoder
    /// refuses them.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when a member is missing or malformed.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let lenient = decoder.readsNewerServerValues
        self.init(
            entitlementId: try c.decode(String.self, forKey: .entitlementId),
            productId: try c.decode(String.self, forKey: .productId),
            originalTransactionId: try c.decode(String.self, forKey: .originalTransactionId),
            expiresAt: try c.decodeIfPresent(Date.self, forKey: .expiresAt),
            ownershipType: try c.decodeKnown(OwnershipType.self, forKey: .ownershipType, fallback: .purchased, lenient: lenient),
            source: try c.decode(ProductType.self, forKey: .source),
            environment: try c.decodeKnown(AppStoreEnvironment.self, forKey: .environment, fallback: .production, lenient: lenient))
    }
}
