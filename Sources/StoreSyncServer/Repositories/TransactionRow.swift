import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore

/// The columns of `transactions` that make a ``TransactionRecord``, in one place for every
/// query that reads or writes them.
enum TransactionRow {
    /// The select list, in the order ``record(_:)`` decodes.
    static let columns: StaticString = """
        transaction_id, original_transaction_id, product_id, product_type, purchase_date,
        original_purchase_date, expires_date, revocation_date, revocation_reason, is_upgraded,
        ownership_type, environment, app_account_token, quantity, signed_date,
        subscription_group_id, evidence, verified_at
        """

    /// How many columns ``columns`` lists.
    static let columnCount = String(describing: columns).split(separator: ",").count

    /// The `jsonb_to_recordset` column list matching ``TransactionRowInput``'s keys: `i` numbers
    /// the rows from 1; the JWS travels apart (see ``TransactionRepository/insert(_:on:)``).
    static let recordsetColumns: StaticString = """
        i integer, account_id uuid, transaction_id text, original_transaction_id text, product_id text,
        product_type text, purchase_date timestamptz, original_purchase_date timestamptz,
        expires_date timestamptz, revocation_date timestamptz, revocation_reason integer,
        is_upgraded boolean, ownership_type text, environment text, app_account_token uuid,
        quantity integer, signed_date timestamptz, subscription_group_id text, evidence text,
        verified_at timestamptz
        """

    /// Decodes a row whose columns from `first` on are ``columns`` (more may follow).
    ///
    /// Column by column in ``columns``' order (arguments are evaluated left to right): the
    /// ledger of every lookup and restore is read here.
    static func record(_ row: PostgresRow, startingAt first: Int = 0) throws -> TransactionRecord {
        var columns = row.columns(from: first)
        return TransactionRecord(
            transactionId: try columns.next(),
            originalTransactionId: try columns.next(),
            productId: try columns.next(),
            productType: try column("product_type", columns.next()),
            purchaseDate: try columns.next(),
            originalPurchaseDate: try columns.next(),
            expiresDate: try columns.next(),
            revocationDate: try columns.next(),
            revocationReason: try columns.next(Int?.self).map(RevocationReason.init(rawValue:)),
            isUpgraded: try columns.next(),
            ownershipType: try column("ownership_type", columns.next()),
            environment: try column("environment", columns.next()),
            appAccountToken: try columns.next(),
            quantity: try columns.next(),
            signedDate: try columns.next(),
            subscriptionGroupId: try columns.next(),
            evidence: try evidence(columns.next(), verifiedAt: columns.next())
        )
    }

    /// Parses an enum column; the schema's CHECK constraints make a failure a broken invariant.
    static func column<Value: RawRepresentable<String>>(_ name: String, _ raw: String) throws -> Value {
        guard let value = Value(rawValue: raw) else { throw StoreSyncError.corruptColumn(name, raw) }
        return value
    }

    static func evidence(_ kind: String, verifiedAt: Date?) throws -> Evidence {
        guard let evidence = Evidence(kind: kind, verifiedAt: verifiedAt) else {
            throw StoreSyncError.corruptColumn("evidence", kind)
        }
        return evidence
    }
}

/// One transaction version bound for an account, as a row of the batch insert.
struct TransactionRowInput: RecordsetRow {
    /// The row's number, from 1: its JWS is element `number` of the insert's JWS array.
    let number: Int
    let accountId: UUID
    let record: TransactionRecord

    func write(to json: inout RecordsetJSON) throws {
        json.column("i", number)
        json.column("account_id", accountId)
        json.column("transaction_id", record.transactionId)
        json.column("original_transaction_id", record.originalTransactionId)
        json.column("product_id", record.productId)
        json.column("product_type", record.productType)
        try json.column("purchase_date", record.purchaseDate)
        try json.column("original_purchase_date", record.originalPurchaseDate)
        try json.column("expires_date", record.expiresDate)
        try json.column("revocation_date", record.revocationDate)
        json.column("revocation_reason", record.revocationReason?.rawValue)
        json.column("is_upgraded", record.isUpgraded)
        json.column("ownership_type", record.ownershipType)
        json.column("environment", record.environment)
        json.column("app_account_token", record.appAccountToken)
        json.column("quantity", record.quantity)
        try json.column("signed_date", record.signedDate)
        json.column("subscription_group_id", record.subscriptionGroupId)
        json.column("evidence", record.evidence.kind)
        if case .receipt(let verifiedAt) = record.evidence { try json.column("verified_at", verifiedAt) }
    }
}
