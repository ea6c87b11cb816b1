import Foundation
import StoreSyncCore
import StoreSyncTesting

/// StoreKit 2 transactions the tests "buy", signed by the test server's PKI.
struct TestPurchase {
    var record: TransactionRecord
    var jws: String

    /// A purchase of a product at the server's current time.
    static func buy(
        _ productId: String, on server: TestServer, token: UUID? = nil, id: String = nextId(), original: String? = nil,
        purchased: Date? = nil, expires: Date? = nil
    ) -> TestPurchase {
        let purchased = purchased ?? server.clock.now()
        let type = TestCatalog.products.first { $0.productId == productId }?.type ?? .nonConsumable
        let isSubscription = type == .autoRenewable
        let record = TransactionRecord(
            transactionId: id, originalTransactionId: original ?? id, productId: productId, productType: type,
            purchaseDate: purchased, originalPurchaseDate: purchased,
            expiresDate: isSubscription ? (expires ?? purchased.addingTimeInterval(30 * 86_400)) : nil,
            environment: .sandbox, appAccountToken: token, signedDate: purchased,
            subscriptionGroupId: isSubscription ? TestCatalog.subscriptionGroup : nil, evidence: .jws)
        return TestPurchase(record: record, jws: server.signer.signTransaction(record))
    }

    /// Apple's later version of this transaction: refunded at `date`.
    func refunded(at date: Date, on server: TestServer) -> TestPurchase {
        var revoked = record
        revoked.revocationDate = date
        revoked.revocationReason = .other
        revoked.signedDate = date
        return TestPurchase(record: revoked, jws: server.signer.signTransaction(revoked))
    }

    /// Unique and numeric, like Apple's ids.
    static func nextId() -> String { String(UInt64.random(in: 100_000_000_000...999_999_999_999)) }
}
