public import StoreSyncCore

/// The body of `GET /v1/catalog`, and the shape of the `STORESYNC_CATALOG` file.
public struct CatalogResponse: Sendable, Hashable, Codable {
    /// The products the app sells.
    public var products: [CatalogProduct]

    /// Creates a catalog response.
    ///
    /// - Parameter products: The products, normally ordered by product id.
    public init(products: [CatalogProduct]) { self.products = products }

    /// Creates the response listing a catalog's products by product id.
    ///
    /// - Parameter catalog: The catalog.
    public init(_ catalog: Catalog) { self.products = catalog.sortedProducts }

    /// The products as a catalog (a later duplicate product id replaces an earlier one).
    public var catalog: Catalog { Catalog(products) }
}
