import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore

/// The entitlement lookup in one round trip: the account version, the renewal infos (as one
/// JSON array, usually empty) and every transaction version the account holds.
///
/// Public so that `make bench` runs exactly this statement in pgbench.
public enum LookupQuery {
    /// The statement's text; `$1`, `$2` and `$3` are the same account id.
    public static var sql: String { query(for: UUID()).sql }

    static func query(for accountId: UUID) -> PostgresQuery {
        """
        WITH version AS (SELECT version FROM account_versions WHERE account_id = \(accountId)),
        renewals AS (
            SELECT json_agg(json_build_object(
                'originalTransactionId', original_transaction_id, 'autoRenewProductId', auto_renew_product_id,
                'productId', product_id, 'autoRenewStatus', auto_renew_status,
                'isInBillingRetryPeriod', is_in_billing_retry, 'gracePeriodExpiresDate', grace_period_expires,
                'expirationIntent', expiration_intent, 'environment', environment, 'signedDate', signed_date))::text
                AS infos
            FROM renewal_infos WHERE account_id = \(accountId))
        SELECT \(unescaped: TransactionRow.columns), version.version, renewals.infos
        FROM version CROSS JOIN renewals
        LEFT JOIN transactions ON transactions.account_id = \(accountId)
        """
    }

    /// Runs the lookup; `nil` when the account does not exist.
    static func run(_ accountId: UUID, on connection: PostgresConnection) async throws -> (version: Int64, ledger: Ledger)? {
        let rows = try await connection.query(query(for: accountId))
        guard let first = rows.first else { return nil }
        let version = try first.decode(column: "version", as: Int64.self)
        var records: [TransactionRecord] = []
        records.reserveCapacity(rows.count)
        for row in rows where try row.decodeColumn(at: 0, as: String?.self) != nil {
            records.append(try TransactionRow.record(row))
        }
        var renewals: [RenewalInfo] = []
        if let json = try first.decode(column: "infos", as: String?.self) {
            renewals = try StoreSyncJSON.makeDecoder().decode([RenewalInfo].self, from: Data(json.utf8))
        }
        return (version, Ledger(records: records, renewalInfos: renewals))
    }
}
