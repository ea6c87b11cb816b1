public import Foundation
public import StoreSyncCore

extension AppStoreTestSigner {
    /// A new purchase as the device that made it holds it: a fresh numeric transaction id (its
    /// own original), Sandbox, signed by this signer.
    ///
    /// - Parameters:
    ///   - productId: The product bought.
    ///   - type: The product's type in the catalog.
    ///   - date: When it was bought and signed.
    /// - Returns: The record, with ``StoreSyncCore/TransactionRecord/signedTransaction`` set.
    public func signedPurchase(
        of productId: String, type: ProductType = .nonConsumable, at date: Date
    ) -> TransactionRecord {
        let id = String(UInt64.random(in: 100_000_000_000...999_999_999_999))
        var record = TransactionRecord(
            transactionId: id, originalTransactionId: id, productId: productId, productType: type,
            purchaseDate: date, originalPurchaseDate: date, environment: .sandbox, signedDate: date, evidence: .jws)
        record.signedTransaction = signTransaction(record)
        return record
    }
}
