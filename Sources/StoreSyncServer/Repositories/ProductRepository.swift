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

    /// Defines or replaces one product.
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
