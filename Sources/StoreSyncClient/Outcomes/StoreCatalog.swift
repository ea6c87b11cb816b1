public import Foundation
public import StoreSyncCore

/// The products the app sells, as the server's catalog lists them: ask StoreKit for
/// ``productIds`` instead of hard-coding them in the app.
public struct StoreCatalog: Sendable, Hashable {
    /// The products, ordered by product id.
    public var products: [CatalogProduct]
    /// When this device fetched the catalog from the server.
    public var fetchedAt: Date
    /// Whether this is the copy cached at ``fetchedAt`` because the server could not be
    /// reached now.
    public var isCached: Bool

    /// Creates a catalog.
    ///
    /// - Parameters:
    ///   - products: The products.
    ///   - fetchedAt: When they were fetched.
    ///   - isCached: Whether they come from the cache.
    public init(products: [CatalogProduct], fetchedAt: Date, isCached: Bool) {
        self.products = products.sorted { $0.productId < $1.productId }
        self.fetchedAt = fetchedAt
        self.isCached = isCached
    }

    /// The product ids to load from StoreKit (`Product.products(for:)`), in order.
    public var productIds: [String] { products.map(\.productId) }

    /// The product with an id, if the catalog lists it.
    ///
    /// - Parameter productId: The App Store product id.
    /// - Returns: The product, or `nil`.
    public func product(_ productId: String) -> CatalogProduct? {
        products.first { $0.productId == productId }
    }
}
