import Foundation
import StoreSyncCore
import StoreSyncTesting

/// Restore entries signed by the bench's test App Store, as a device holds them.
struct SignedEntries {
    let signer: AppStoreTestSigner

    /// `count` purchases in the seed's mix (lifetime unlocks, monthly subscriptions, season
    /// passes, consumables), none refunded, with transaction ids `firstId`, `firstId + 1`, …
    func purchases(count: Int, firstId: Int64, now: Date = Date()) -> [TransactionRecord] {
        let products = [
            TestCatalog.lifetime, TestCatalog.monthly, TestCatalog.monthly, TestCatalog.seasonPass, TestCatalog.coins,
        ]
        return (0..<count).map { index in
            let id = String(firstId + Int64(index))
            let product = products[index % products.count]
            let type = TestCatalog.products.first { $0.productId == product }!.type
            let purchased = now.addingTimeInterval(-Double(index % 90) * 86_400)
            return signed(TransactionRecord(
                transactionId: id, originalTransactionId: id, productId: product, productType: type,
                purchaseDate: purchased, originalPurchaseDate: purchased,
                expiresDate: type == .autoRenewable ? purchased.addingTimeInterval(30 * 86_400) : nil,
                environment: .sandbox, signedDate: purchased,
                subscriptionGroupId: type == .autoRenewable ? TestCatalog.subscriptionGroup : nil, evidence: .jws))
        }
    }

    /// One monthly subscription renewed `months` times: a chain of `months` versions under the
    /// original id `firstId`, the last one current.
    func monthlyChain(months: Int, firstId: Int64, now: Date = Date()) -> [TransactionRecord] {
        let month = 30.0 * 86_400
        let started = now.addingTimeInterval(-Double(months - 1) * month - 86_400)
        return (0..<months).map { index in
            let purchased = started.addingTimeInterval(Double(index) * month)
            return signed(TransactionRecord(
                transactionId: String(firstId + Int64(index)), originalTransactionId: String(firstId),
                productId: TestCatalog.monthly, productType: .autoRenewable, purchaseDate: purchased,
                originalPurchaseDate: started, expiresDate: purchased.addingTimeInterval(month), environment: .sandbox,
                signedDate: purchased, subscriptionGroupId: TestCatalog.subscriptionGroup, evidence: .jws))
        }
    }

    /// The renewal of a seeded monthly subscription that Apple's `DID_RENEW` notification
    /// carries: a new transaction id in the purchase's chain, bought and signed `now`.
    func renewal(of originalTransactionId: String, transactionId: Int64, now: Date = Date()) -> TransactionRecord {
        TransactionRecord(
            transactionId: String(transactionId), originalTransactionId: originalTransactionId,
            productId: TestCatalog.monthly, productType: .autoRenewable, purchaseDate: now,
            originalPurchaseDate: now.addingTimeInterval(-90 * 86_400), expiresDate: now.addingTimeInterval(30 * 86_400),
            environment: .sandbox, signedDate: now, subscriptionGroupId: TestCatalog.subscriptionGroup, evidence: .jws)
    }

    private func signed(_ record: TransactionRecord) -> TransactionRecord {
        var record = record
        record.signedTransaction = signer.signTransaction(record)
        return record
    }
}
