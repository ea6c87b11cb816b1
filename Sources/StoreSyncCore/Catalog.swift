/// The app's products keyed by product id.
///
/// A transaction for a product the catalog does not know is kept in the ledger but grants
/// nothing until the product is defined.
public struct Catalog: Sendable, Hashable {
    /// The products by product id.
    public private(set) var products: [String: CatalogProduct]

    /// Creates a catalog; a later product with the same id replaces an earlier one.
    ///
    /// - Parameter products: The products of the app.
    public init(_ products: some Sequence<CatalogProduct> = []) {
        self.products = Dictionary(products.map { ($0.productId, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// The product with this id, if the catalog defines it.
    public subscript(productId: String) -> CatalogProduct? { products[productId] }

    /// Defines or replaces one product.
    ///
    /// - Parameter product: The product definition.
    public mutating func define(_ product: CatalogProduct) { products[product.productId] = product }

    /// All products, ordered by product id.
    public var sortedProducts: [CatalogProduct] { products.values.sorted { $0.productId < $1.productId } }
}
