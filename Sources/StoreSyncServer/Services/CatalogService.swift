import Crypto
import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore

/// The catalog: stored in `products`, held in memory for every derivation, changed by the
/// admin route or the file loaded at start. Defining a product makes purchases of it that
/// are already stored grant, without any device re-sending.
final class CatalogService: Sendable {
    private let pool: ConnectionPool
    private let repository = ProductRepository()
    private let state = NIOLockedValueBox(CatalogState(catalog: Catalog(), revision: CatalogState.revision(of: Catalog())))
    private let logger: Logger
    /// Reloads take turns: a notification's reload racing the start-up load or an admin
    /// definition could otherwise publish the older of two reads last.
    private let reloads = AsyncSerialGate()

    struct CatalogState: Sendable {
        let catalog: Catalog
        /// A digest of the catalog's content; part of every snapshot's ETag, and equal on every
        /// server instance that holds the same catalog.
        let revision: String

        static func revision(of catalog: Catalog) -> String {
            var hasher = SHA256()
            for product in catalog.sortedProducts {
                let line = [
                    product.productId, product.type.rawValue, product.entitlements.joined(separator: ","),
                    product.durationSeconds.map(String.init) ?? "", product.subscriptionGroupId ?? "",
                    product.gracePeriodSeconds.map(String.init) ?? "",
                ].joined(separator: "\u{1F}") + "\u{1E}"
                hasher.update(data: Data(line.utf8))
            }
            return hasher.finalize().prefix(8).hexString
        }
    }

    init(pool: ConnectionPool, logger: Logger) {
        self.pool = pool
        self.logger = logger
    }

    /// The catalog as of now.
    var current: Catalog { state.withLockedValue { $0.catalog } }

    /// The catalog and its revision, read together.
    var currentState: CatalogState { state.withLockedValue { $0 } }

    /// Reads the catalog from the database.
    func reload() async throws {
        try await reloads.run {
            let products = try await pool.withConnection { try await repository.all(on: $0) }
            publish(Catalog(products))
        }
    }

    /// Loads the `STORESYNC_CATALOG` file into the database (products it names are defined
    /// or replaced; others are kept) and reloads.
    func loadFile(at path: String) async throws {
        let products = try Self.products(inFile: path)
        try await pool.withTransaction { connection in
            for product in products { try await repository.upsert(product, on: connection) }
        }
        try await reload()
        logger.info("catalog loaded", metadata: ["storesync.catalog.products": "\(products.count)"])
    }

    /// The products of a catalog file, read and checked without touching the database.
    ///
    /// - Throws: ``ConfigurationError`` naming `STORESYNC_CATALOG` when the file cannot be read,
    ///   is not a catalog, or defines a product wrongly.
    static func products(inFile path: String) throws -> [CatalogProduct] {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ConfigurationError.invalid(.catalog, "cannot read \(path): \(error.localizedDescription)")
        }
        let file: CatalogResponse
        do {
            file = try StoreSyncJSON.makeDecoder().decode(CatalogResponse.self, from: data)
        } catch {
            throw ConfigurationError.invalid(.catalog, "\(path) is not a catalog ({\"products\": [...]}): \(error)")
        }
        for product in file.products {
            if let problem = problem(with: product) {
                throw ConfigurationError.invalid(.catalog, "product \(product.productId): \(problem)")
            }
        }
        return file.products
    }

    /// Defines or replaces one product.
    func define(_ product: CatalogProduct) async throws {
        if let problem = Self.problem(with: product) { throw RequestError.invalid(field: nil, detail: problem) }
        try await pool.withConnection { try await repository.upsert(product, on: $0) }
        try await reload()
    }

    private func publish(_ catalog: Catalog) {
        state.withLockedValue { $0 = CatalogState(catalog: catalog, revision: CatalogState.revision(of: catalog)) }
    }

    /// What is wrong with a product definition, if anything.
    ///
    /// Lengths are counted in Unicode code points, as PostgreSQL's `length()` in the columns'
    /// checks counts them.
    static func problem(with product: CatalogProduct) -> String? {
        if !(1...255).contains(product.productId.unicodeScalars.count) { return "productId must have 1 to 255 characters" }
        if product.entitlements.contains(where: { !(1...255).contains($0.unicodeScalars.count) }) {
            return "each entitlement id must have 1 to 255 characters"
        }
        if !product.type.isKnown {
            return "type must be one of \(ProductType.allCases.map(\.rawValue).joined(separator: ", "))"
        }
        if Set(product.entitlements).count != product.entitlements.count { return "entitlements must not repeat" }
        switch product.type {
        case .nonRenewing:
            guard let duration = product.durationSeconds, duration > 0 else {
                return "a nonRenewing product needs durationSeconds > 0: Apple states no end date for it"
            }
        default:
            if product.durationSeconds != nil { return "durationSeconds applies to nonRenewing products only" }
        }
        if let grace = product.gracePeriodSeconds, grace < 0 || product.type != .autoRenewable {
            return "gracePeriodSeconds must be ≥ 0 and applies to autoRenewable products only"
        }
        return nil
    }
}
