public import Foundation
public import StoreSyncCore

/// StoreKit 2 transactions the tests "buy", signed by the test server's PKI.
public struct TestPurchase: Sendable {
    /// The transaction as Apple states it.
    public var record: TransactionRecord
    /// Its compact JWS, as StoreKit hands it to the app.
    public var jws: String

    /// Pairs a record with its JWS.
    ///
    /// - Parameters:
    ///   - record: The transaction.
    ///   - jws: Its signed form.
    public init(record: TransactionRecord, jws: String) {
        self.record = record
        self.jws = jws
    }

    /// A purchase of a product at the server's current time; its type comes from
    /// ``TestCatalog`` (a product the catalog lacks is a non-consumable).
    ///
    /// - Parameters:
    ///   - productId: The product.
    ///   - server: The server whose signer and clock are used.
    ///   - token: The appAccountToken StoreKit carries, if any.
    ///   - id: The transaction id; a fresh one by default.
    ///   - original: The original transaction id; `id` by default.
    ///   - purchased: The purchase date; the server's now by default.
    ///   - expires: A subscription's expiry; 30 days after purchase by default.
    ///   - ownership: Purchased, or family-shared.
    /// - Returns: The signed purchase.
    public static func buy(
        _ productId: String, on server: TestServer, token: UUID? = nil, id: String = nextId(), original: String? = nil,
        purchased: Date? = nil, expires: Date? = nil, ownership: OwnershipType = .purchased
    ) -> TestPurchase {
        buy(
            productId, signedBy: server.signer, at: purchased ?? server.clock.now(), token: token, id: id, original: original,
            expires: expires, ownership: ownership)
    }

    /// A purchase of a product at `purchased`, signed by `signer` (a test App Store PKI a
    /// server trusts, in process or not); its type comes from ``TestCatalog``.
    ///
    /// - Parameters:
    ///   - productId: The product.
    ///   - signer: The App Store stand-in's signer.
    ///   - purchased: The purchase date, also when Apple signed it.
    ///   - token: The appAccountToken StoreKit carries, if any.
    ///   - id: The transaction id; a fresh one by default.
    ///   - original: The original transaction id; `id` by default.
    ///   - expires: A subscription's expiry; 30 days after purchase by default.
    ///   - ownership: Purchased, or family-shared.
    /// - Returns: The signed purchase.
    public static func buy(
        _ productId: String, signedBy signer: AppStoreTestSigner, at purchased: Date, token: UUID? = nil,
        id: String = nextId(), original: String? = nil, expires: Date? = nil, ownership: OwnershipType = .purchased
    ) -> TestPurchase {
        let type = TestCatalog.products.first { $0.productId == productId }?.type ?? .nonConsumable
        let isSubscription = type == .autoRenewable
        let record = TransactionRecord(
            transactionId: id, originalTransactionId: original ?? id, productId: productId, productType: type,
            purchaseDate: purchased, originalPurchaseDate: purchased,
            expiresDate: isSubscription ? (expires ?? purchased.addingTimeInterval(30 * 86_400)) : nil,
            ownershipType: ownership, environment: .sandbox, appAccountToken: token, signedDate: purchased,
            subscriptionGroupId: isSubscription ? TestCatalog.subscriptionGroup : nil, evidence: .jws)
        return TestPurchase(record: record, jws: signer.signTransaction(record))
    }

    /// Apple's later version of this transaction: refunded at `date`.
    ///
    /// - Parameters:
    ///   - date: When it was refunded (and signed).
    ///   - server: The server whose signer is used.
    /// - Returns: The refunded version.
    public func refunded(at date: Date, on server: TestServer) -> TestPurchase {
        refunded(at: date, signedBy: server.signer)
    }

    /// Apple's later version of this transaction: refunded at `date`, signed by `signer`.
    ///
    /// - Parameters:
    ///   - date: When it was refunded (and signed).
    ///   - signer: The App Store stand-in's signer.
    /// - Returns: The refunded version.
    public func refunded(at date: Date, signedBy signer: AppStoreTestSigner) -> TestPurchase {
        var revoked = record
        revoked.revocationDate = date
        revoked.revocationReason = .other
        revoked.signedDate = date
        return TestPurchase(record: revoked, jws: signer.signTransaction(revoked))
    }

    /// Apple's version of this transaction re-signed at `date`, otherwise unchanged: e.g. a
    /// refund reversed, or an upgraded subscription marked `isUpgraded`.
    ///
    /// - Parameters:
    ///   - date: The new signing date.
    ///   - server: The server whose signer is used.
    ///   - change: Edits to the record, e.g. setting `isUpgraded`.
    /// - Returns: The re-signed version.
    public func resigned(at date: Date, on server: TestServer, _ change: (inout TransactionRecord) -> Void = { _ in })
        -> TestPurchase
    {
        var version = record
        version.signedDate = date
        change(&version)
        return TestPurchase(record: version, jws: server.signer.signTransaction(version))
    }

    /// Unique and numeric, like Apple's ids.
    ///
    /// - Returns: A 12-digit id.
    public static func nextId() -> String { String(UInt64.random(in: 100_000_000_000...999_999_999_999)) }
}
