import Foundation
import PostgresLibPQ
import StoreSyncCore

/// SQL over `products`, the catalog.
struct ProductRepository: Sendable {
    func all(on connection: PostgresConnection) async throws -> [CatalogProduct] {
        try await connection.query(
            """
            SELECT product_id, type, entitlements, duration_seconds, subscription_group_id, grace_period_seconds
            FROM products ORDER BY product_id
            """
        ).map { row in
            let (id, type, entitlements, duration, group, grace) = try row.decode(
                (String, String, [String], Int?, String?, Int?).self)
            return CatalogProduct(
                productId: id, type: try TransactionRow.column("type", type), entitlements: entitlements,
                durationSeconds: duration, subscriptionGroupId: group, gracePeriodSeconds: grace)
        }
    }

    /// The stored definitions of `ids` with the digest of the file definition each last took,
    /// locked until the transaction ends, so two servers loading the file at once take turns.
    func fileState(of ids: [String], on connection: PostgresConnection) async throws -> [String: StoredDefinition] {
        var stored: [String: StoredDefinition] = [:]
        for row in try await connection.query(
            """
            SELECT product_id, type, entitlements, duration_seconds, subscription_group_id, grace_period_seconds,
                   file_definition_sha256
            FROM products WHERE product_id = ANY(\(ids)) ORDER BY product_id FOR UPDATE
            """)
        {
            let (id, type, entitlements, duration, group, grace, digest) = try row.decode(
                (String, String, [String], Int?, String?, Int?, String?).self)
            stored[id] = StoredDefinition(
                product: CatalogProduct(
                    productId: id, type: try TransactionRow.column("type", type), entitlements: entitlements,
                    durationSeconds: duration, subscriptionGroupId: group, gracePeriodSeconds: grace),
                fileDigest: digest)
        }
        return stored
    }

    /// A product as stored, and the digest of the file definition it last took (nil: none).
    struct StoredDefinition {
        let product: CatalogProduct
        let fileDigest: String?
    }

    /// Defines or replaces one product as the catalog file says, recording that definition's
    /// digest.
    func applyFileDefinition(_ product: CatalogProduct, digest: String, on connection: PostgresConnection) async throws {
        try await connection.execute(
            """
            INSERT INTO products (product_id, type, entitlements, duration_seconds, subscription_group_id, grace_period_seconds,
                                  file_definition_sha256)
            VALUES (\(product.productId), \(product.type.rawValue), \(product.entitlements), \(product.durationSeconds),
                    \(product.subscriptionGroupId), \(product.gracePeriodSeconds), \(digest))
            ON CONFLICT (product_id) DO UPDATE
            SET type = EXCLUDED.type, entitlements = EXCLUDED.entitlements,
                duration_seconds = EXCLUDED.duration_seconds, subscription_group_id = EXCLUDED.subscription_group_id,
                grace_period_seconds = EXCLUDED.grace_period_seconds, file_definition_sha256 = EXCLUDED.file_definition_sha256,
                updated_at = now()
            """)
    }

    /// Defines or replaces one product (the admin route); the file's digest is left as it was,
    /// so the file's next change to this product still applies.
    func upsert(_ product: CatalogProduct, on connection: PostgresConnection) async throws {
        try await connection.execute(
            """
            INSERT INTO products (product_id, type, entitlements, duration_seconds, subscription_group_id, grace_period_seconds)
            VALUES (\(product.productId), \(product.type.rawValue), \(product.entitlements), \(product.durationSeconds),
                    \(product.subscriptionGroupId), \(product.gracePeriodSeconds))
            ON CONFLICT (product_id) DO UPDATE
            SET type = EXCLUDED.type, entitlements = EXCLUDED.entitlements,
                duration_seconds = EXCLUDED.duration_seconds, subscription_group_id = EXCLUDED.subscription_group_id,
                grace_period_seconds = EXCLUDED.grace_period_seconds, updated_at = now()
            """)
    }
}
