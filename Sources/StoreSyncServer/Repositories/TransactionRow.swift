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

extension TransactionRow {
    /// The record as reading its stored row back gives it: without its JWS (the ledger's reads
    /// leave it in the database), its dates at the microsecond `timestamptz` keeps.
    ///
    /// What lets a restore work out the ledger it has just written instead of reading it again.
    static func readBack(_ record: TransactionRecord) -> TransactionRecord {
        var stored = record
        stored.signedTransaction = nil
        stored.purchaseDate = stored.purchaseDate.asStored
        stored.originalPurchaseDate = stored.originalPurchaseDate.asStored
        stored.expiresDate = stored.expiresDate?.asStored
        stored.revocationDate = stored.revocationDate?.asStored
        stored.signedDate = stored.signedDate.asStored
        if case .receipt(let verifiedAt) = stored.evidence { stored.evidence = .receipt(verifiedAt: verifiedAt.asStored) }
        return stored
    }
}

extension Date {
    /// The date a `timestamptz` column gives back for this one, through the same encoding and
    /// decoding the statements use.
    fileprivate var asStored: Date {
        var bytes: [UInt8] = []
        encode(into: &bytes)
        // Eight bytes this encoder just wrote always decode.
        return bytes.withUnsafeBytes { (try? Date(postgresBytes: $0, type: .timestamptz)) ?? self }
    }
}
