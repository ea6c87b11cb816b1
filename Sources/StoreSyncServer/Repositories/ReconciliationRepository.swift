import Foundation
import PostgresLibPQ

/// A subscription whose expiry passed without a newer record.
struct DueSubscription: Sendable, Hashable {
    let originalTransactionId: String
    /// When its latest record expired.
    let expiresDate: Date
}

/// SQL over `purchase_reconciliations`, and the scan for subscriptions due a reconciliation.
struct ReconciliationRepository: Sendable {
    /// Records that the purchase was reconciled with the App Store Server API at `date`.
    func markReconciled(_ originalTransactionId: String, at date: Date, on connection: PostgresConnection) async throws {
        try await connection.execute(
            """
            INSERT INTO purchase_reconciliations (original_transaction_id, reconciled_at)
            VALUES (\(originalTransactionId), \(date))
            ON CONFLICT (original_transaction_id) DO UPDATE SET reconciled_at = EXCLUDED.reconciled_at
            """)
    }

    /// Subscriptions whose latest expiry lies in `(from, to]`, with no later record of the chain
    /// and not reconciled since that expiry, earliest expiry first.
    ///
    /// - Parameters:
    ///   - from: The start of the window (exclusive).
    ///   - to: Its end (inclusive): now.
    ///   - limit: The most returned.
    func dueSubscriptions(from: Date, to: Date, limit: Int, on connection: PostgresConnection) async throws
        -> [DueSubscription]
    {
        try await connection.query(
            """
            SELECT due.original_transaction_id, due.expires_date
            FROM (
                SELECT DISTINCT ON (original_transaction_id) original_transaction_id, expires_date
                FROM transactions
                WHERE product_type = 'autoRenewable' AND revocation_date IS NULL
                  AND expires_date > \(from) AND expires_date <= \(to)
                ORDER BY original_transaction_id, expires_date DESC
            ) AS due
            WHERE NOT EXISTS (
                    SELECT 1 FROM transactions AS newer
                    WHERE newer.original_transaction_id = due.original_transaction_id
                      AND newer.expires_date > due.expires_date)
              AND NOT EXISTS (
                    SELECT 1 FROM purchase_reconciliations AS done
                    WHERE done.original_transaction_id = due.original_transaction_id
                      AND done.reconciled_at >= due.expires_date)
            ORDER BY due.expires_date, due.original_transaction_id
            LIMIT \(limit)
            """
        ).map { row in
            let (id, expires) = try row.decode((String, Date).self)
            return DueSubscription(originalTransactionId: id, expiresDate: expires)
        }
    }
}
