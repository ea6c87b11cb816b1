import Foundation
import StoreSyncCore
import StoreSyncTesting

/// Transactions the server tests buy, signed by the test server's PKI.
enum TestPurchases {
    static func record(
        _ productId: String = TestCatalog.lifetime, type: ProductType = .nonConsumable, id: String = nextId(),
        original: String? = nil, purchased: Date, signed: Date? = nil, expires: Date? = nil,
        revoked: Date? = nil, token: UUID? = nil, upgraded: Bool = false, ownership: OwnershipType = .purchased,
        group: String? = nil, environment: AppStoreEnvironment = .sandbox
    ) -> TransactionRecord {
        TransactionRecord(
            transactionId: id, originalTransactionId: original ?? id, productId: productId, productType: type,
            purchaseDate: purchased, originalPurchaseDate: purchased, expiresDate: expires, revocationDate: revoked,
            revocationReason: revoked == nil ? nil : .other, isUpgraded: upgraded, ownershipType: ownership,
            environment: environment, appAccountToken: token, quantity: 1, signedDate: signed ?? purchased,
            subscriptionGroupId: group, evidence: .jws)
    }

    /// Unique, numeric like Apple's.
    static func nextId() -> String {
        String(UInt64.random(in: 100_000_000_000...999_999_999_999))
    }
}
