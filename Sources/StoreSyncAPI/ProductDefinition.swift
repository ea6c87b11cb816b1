public import StoreSyncCore

/// The body of `PUT /v1/admin/catalog/products/{productId}`: a product without its id, which
/// the path names (a `productId` in the body must equal it).
public struct ProductDefinition: Sendable, Hashable, Codable {
    /// Optional; when present it must equal the path's product id.
    public var productId: String?
    public var type: ProductType
    public var entitlements: [String]
    public var durationSeconds: Int?
    public var subscriptionGroupId: String?
    public var gracePeriodSeconds: Int?

    /// Creates a product definition.
    ///
    /// - Parameters:
    ///   - productId: The product id, if repeated from the path.
    ///   - type: The kind of product.
    ///   - entitlements: The entitlement ids it grants.
    ///   - durationSeconds: The length of a non-renewing purchase.
    ///   - subscriptionGroupId: The subscription group.
    ///   - gracePeriodSeconds: The billing grace period of an auto-renewable subscription.
    public init(
        productId: String? = nil, type: ProductType, entitlements: [String], durationSeconds: Int? = nil,
        subscriptionGroupId: String? = nil, gracePeriodSeconds: Int? = nil
    ) {
        self.productId = productId
        self.type = type
        self.entitlements = entitlements
        self.durationSeconds = durationSeconds
        self.subscriptionGroupId = subscriptionGroupId
        self.gracePeriodSeconds = gracePeriodSeconds
    }
}
