/// One product as the app's catalog defines it: what kind it is and what it unlocks.
public struct CatalogProduct: Sendable, Hashable, Codable {
    /// The App Store product identifier.
    public var productId: String
    /// The kind of product; decides which derivation rule applies.
    public var type: ProductType
    /// The entitlement ids this product grants, e.g. `["premium"]`.
    public var entitlements: [String]
    /// The length of one purchase of a non-renewing subscription; Apple states none.
    public var durationSeconds: Int?
    /// The subscription group, for subscriptions.
    public var subscriptionGroupId: String?
    /// The billing grace period set in App Store Connect, used when renewal info reports
    /// a billing retry without an explicit grace period end.
    public var gracePeriodSeconds: Int?

    /// Creates a catalog product.
    ///
    /// - Parameters:
    ///   - productId: The App Store product identifier.
    ///   - type: The kind of product.
    ///   - entitlements: The entitlement ids it grants.
    ///   - durationSeconds: The length of a non-renewing purchase.
    ///   - subscriptionGroupId: The subscription group, for subscriptions.
    ///   - gracePeriodSeconds: The billing grace period, for auto-renewables.
    public init(
        productId: String,
        type: ProductType,
        entitlements: [String],
        durationSeconds: Int? = nil,
        subscriptionGroupId: String? = nil,
        gracePeriodSeconds: Int? = nil
    ) {
        self.productId = productId
        self.type = type
        self.entitlements = entitlements
        self.durationSeconds = durationSeconds
        self.subscriptionGroupId = subscriptionGroupId
        self.gracePeriodSeconds = gracePeriodSeconds
    }
}

extension CatalogProduct {
    /// Whether a transaction of this product may be read as the kind the catalog defines: it
    /// states the same kind, or a kind Apple added after StoreSync learned its vocabulary (the
    /// catalog then decides). A transaction stating another known kind contradicts the
    /// catalog and grants nothing.
    ///
    /// - Parameter record: A transaction of this product.
    /// - Returns: `true` when the catalog's kind applies to it.
    public func describes(_ record: TransactionRecord) -> Bool {
        record.productType == type || !record.productType.isKnown
    }
}
