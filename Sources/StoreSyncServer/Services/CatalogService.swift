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
                hasher.update(data: Data(definitionLine(of: product).utf8))
            }
            return hasher.finalize().prefix(8).hexString
        }

        /// One product's every field, in a fixed order, between control characters no field
        /// holds.
        static func definitionLine(of product: CatalogProduct) -> String {
            [
                product.productId, product.type.rawValue, product.entitlements.joined(separator: ","),
                product.durationSeconds.map(String.init) ?? "", product.subscriptionGroupId ?? "",
                product.gracePeriodSeconds.map(String.init) ?? "",
            ].joined(separator: "\u{1F}") + "\u{1E}"
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

    /// Loads the `STORESYNC_CATALOG` file into the database and reloads.
    ///
    /// The file applies what it changed since it was last loaded: a product it names for the
    /// first time, or whose definition in it changed, is defined or replaced; a product whose
    /// definition in the file is the one already applied keeps what is stored, so a change the
    /// admin route made since stands across restarts (until the file's definition of that
    /// product changes). Products it does not name are kept. Each replaced or kept difference
    /// is logged, naming the product.
    func loadFile(at path: String) async throws {
        let products = try Self.products(inFile: path)
        let outcome = try await pool.withTransaction { connection in
            let stored = try await repository.fileState(of: products.map(\.productId), on: connection)
            var outcome = FileLoad()
            for product in products {
                let digest = Self.fileDigest(of: product)
                let current = stored[product.productId]
                if current?.fileDigest == digest {
                    if current?.product != product { outcome.keptAdminDefinitions.append(product.productId) }
                    continue
                }
                try await repository.applyFileDefinition(product, digest: digest, on: connection)
                if let current, current.product != product { outcome.replaced.append(product.productId) }
            }
            return outcome
        }
        try await reload()
        for id in outcome.replaced {
            logger.notice("the catalog file's changed definition replaces the stored one", metadata: ["storesync.product": "\(id)"])
        }
        for id in outcome.keptAdminDefinitions {
            logger.notice(
                "a product keeps the definition the admin route gave it; the catalog file's is unchanged since it was applied",
                metadata: ["storesync.product": "\(id)"])
        }
        logger.info("catalog loaded", metadata: ["storesync.catalog.products": "\(products.count)"])
    }

    /// What a load of the catalog file did beyond applying new definitions.
    struct FileLoad: Sendable {
        /// Products whose stored definition differed and the file replaced.
        var replaced: [String] = []
        /// Products whose stored definition differs from the file's and was kept.
        var keptAdminDefinitions: [String] = []
    }

    /// The SHA-256 of a product's definition (every field, in a fixed order), hex.
    static func fileDigest(of product: CatalogProduct) -> String {
        Data(SHA256.hash(data: Data(CatalogState.definitionLine(of: product).utf8))).hexString
    }

    /// The products of a catalog file, read and checked without touching the database.
    ///
    /// - Throws: ``ConfigurationError`` naming `STORESYNC_CATALOG` when the file cannot be read,
    ///   is not a catalog, defines a product wrongly, or defines one twice.
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
        var seen: Set<String> = []
        for product in file.products {
            if let problem = problem(with: product) {
                throw ConfigurationError.invalid(.catalog, "product \(product.productId): \(problem)")
            }
            guard seen.insert(product.productId).inserted else {
                throw ConfigurationError.invalid(.catalog, "product \(product.productId) is defined twice")
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
