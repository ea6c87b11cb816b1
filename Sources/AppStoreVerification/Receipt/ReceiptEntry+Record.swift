import AppStorePayloads
import Foundation
import StoreSyncCore

extension ReceiptEntry {
    /// The StoreSync record of this entry, vouched for by Apple's answer at `verifiedAt`.
    ///
    /// - Parameters:
    ///   - productType: The entry's product type (receipts do not state it).
    ///   - environment: The environment that answered.
    ///   - stateAsOf: The moment the entry describes, the version's `signedDate`: when Apple
    ///     answered for `latest_receipt_info` (its server's current state), when the receipt
    ///     was made for an `in_app` entry (what that copy of the receipt holds).
    ///   - verifiedAt: When Apple vouched for it.
    /// - Returns: The record.
    /// - Throws: ``ReceiptVerificationError/malformedResponse(_:)`` when an id is missing or a
    ///   number is not a number, or an id or number is out of the range StoreSync keeps.
    func record(productType: ProductType, environment: AppStoreEnvironment, stateAsOf: Date, verifiedAt: Date)
        throws(ReceiptVerificationError) -> TransactionRecord
    {
        guard let transactionId, !transactionId.isEmpty else { throw .malformedResponse("transaction_id is missing") }
        guard let productId, !productId.isEmpty else { throw .malformedResponse("product_id is missing") }
        guard let purchaseDate = try Self.date(purchaseDateMs, "purchase_date_ms") else {
            throw .malformedResponse("purchase_date_ms is missing")
        }
        let quantity = try quantity.map { text throws(ReceiptVerificationError) in
            guard let value = Int(text), value >= 1 else { throw .malformedResponse("quantity is not a count") }
            return value
        }
        let reason = try cancellationReason.map { text throws(ReceiptVerificationError) in
            guard let value = Int(text) else { throw .malformedResponse("cancellation_reason is not a number") }
            return RevocationReason(rawValue: value)
        }
        let record = TransactionRecord(
            transactionId: transactionId,
            originalTransactionId: originalTransactionId.flatMap { $0.isEmpty ? nil : $0 } ?? transactionId,
            productId: productId,
            productType: productType,
            purchaseDate: purchaseDate,
            originalPurchaseDate: try Self.date(originalPurchaseDateMs, "original_purchase_date_ms") ?? purchaseDate,
            expiresDate: try Self.date(expiresDateMs, "expires_date_ms"),
            revocationDate: try Self.date(cancellationDateMs, "cancellation_date_ms"),
            revocationReason: reason,
            isUpgraded: isUpgraded == "true",
            ownershipType: inAppOwnershipType?.ownershipType ?? .purchased,
            environment: environment,
            appAccountToken: appAccountToken.flatMap(UUID.init(uuidString:)),
            quantity: quantity ?? 1,
            signedDate: stateAsOf,
            subscriptionGroupId: subscriptionGroupIdentifier,
            evidence: .receipt(verifiedAt: verifiedAt)
        )
        if let field = record.unkeepableField { throw .malformedResponse(field) }
        return record
    }

    /// Parses Apple's string of milliseconds since 1970.
    static func date(_ text: String?, _ field: String) throws(ReceiptVerificationError) -> Date? {
        guard let text else { return nil }
        guard let milliseconds = Int64(text) else { throw .malformedResponse("\(field) is not a number") }
        let date = Date(millisecondsSince1970: milliseconds)
        guard Date.storableRange.contains(date) else { throw .malformedResponse("\(field) is out of range") }
        return date
    }
}
