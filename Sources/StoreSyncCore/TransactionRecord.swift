public import Foundation

/// One App Store transaction as last verified: a single version of one `transactionId`.
///
/// Versions of the same transaction differ by ``signedDate`` (a renewal, a refund, a
/// refund reversal are new versions Apple signs later). Records that share an
/// ``originalTransactionId`` form a chain: one purchase across restores and renewals.
/// Dates are kept to whole milliseconds, the precision of Apple's payloads.
public struct TransactionRecord: Sendable, Hashable {
    /// Apple's id of this transaction; the ledger's key.
    public var transactionId: String
    /// The id of the purchase this transaction belongs to; the chain's key.
    public var originalTransactionId: String
    /// The App Store product identifier.
    public var productId: String
    /// The kind of product, as Apple (or the receipt verifier) stated it.
    public var productType: ProductType
    /// When this transaction was charged or restored (a renewal's period start).
    public var purchaseDate: Date
    /// When the original purchase of the chain was made.
    public var originalPurchaseDate: Date
    /// The end of the paid period for auto-renewable subscriptions; `nil` otherwise.
    public var expiresDate: Date?
    /// When Apple refunded or revoked the transaction; cleared by a later refund reversal.
    public var revocationDate: Date?
    /// Why Apple revoked it.
    public var revocationReason: RevocationReason?
    /// Whether the user upgraded to another subscription of the same group.
    public var isUpgraded: Bool
    /// Purchased by the account or shared with it through Family Sharing.
    public var ownershipType: OwnershipType
    /// The App Store environment that signed it.
    public var environment: AppStoreEnvironment
    /// The app's account UUID that the purchase was made with (`appAccountToken`).
    public var appAccountToken: UUID?
    /// How many were bought; meaningful for consumables.
    public var quantity: Int
    /// When Apple signed this version; the merge keeps the latest.
    public var signedDate: Date
    /// The subscription group, for subscriptions.
    public var subscriptionGroupId: String?
    /// What vouches for this version.
    public var evidence: Evidence
    /// The compact StoreKit 2 JWS of this version, when this copy carries it.
    public var signedTransaction: String? {
        get { signedText?.string }
        set { signedText = newValue.map { SignedText(whole: $0) } }
    }
    /// The same JWS as this copy holds it: a server holds a restore's texts with their headers
    /// shared (``SignedText``), a device holds each whole.
    package var signedText: SignedText?

    /// Creates a record; every date is rounded to whole milliseconds.
    ///
    /// - Parameters:
    ///   - transactionId: Apple's id of this transaction.
    ///   - originalTransactionId: The id of the purchase this transaction belongs to.
    ///   - productId: The App Store product identifier.
    ///   - productType: The kind of product.
    ///   - purchaseDate: When this transaction was charged or restored.
    ///   - originalPurchaseDate: When the original purchase was made.
    ///   - expiresDate: The end of an auto-renewable subscription period.
    ///   - revocationDate: When Apple refunded or revoked it.
    ///   - revocationReason: Why Apple refunded or revoked it.
    ///   - isUpgraded: Whether a higher tier of the same group replaced it.
    ///   - ownershipType: Purchased or family-shared.
    ///   - environment: The App Store environment that signed it.
    ///   - appAccountToken: The app account UUID the purchase carries.
    ///   - quantity: The number bought.
    ///   - signedDate: When Apple signed this version.
    ///   - subscriptionGroupId: The subscription group, for subscriptions.
    ///   - evidence: What vouches for this version.
    ///   - signedTransaction: The JWS of this version, when carried.
    public init(
        transactionId: String,
        originalTransactionId: String,
        productId: String,
        productType: ProductType,
        purchaseDate: Date,
        originalPurchaseDate: Date,
        expiresDate: Date? = nil,
        revocationDate: Date? = nil,
        revocationReason: RevocationReason? = nil,
        isUpgraded: Bool = false,
        ownershipType: OwnershipType = .purchased,
        environment: AppStoreEnvironment = .production,
        appAccountToken: UUID? = nil,
        quantity: Int = 1,
        signedDate: Date,
        subscriptionGroupId: String? = nil,
        evidence: Evidence,
        signedTransaction: String? = nil
    ) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.productType = productType
        self.purchaseDate = purchaseDate.roundedToMilliseconds
        self.originalPurchaseDate = originalPurchaseDate.roundedToMilliseconds
        self.expiresDate = expiresDate?.roundedToMilliseconds
        self.revocationDate = revocationDate?.roundedToMilliseconds
        self.revocationReason = revocationReason
        self.isUpgraded = isUpgraded
        self.ownershipType = ownershipType
        self.environment = environment
        self.appAccountToken = appAccountToken
        self.quantity = quantity
        self.signedDate = signedDate.roundedToMilliseconds
        self.subscriptionGroupId = subscriptionGroupId
        self.evidence = evidence.roundedToMilliseconds
        self.signedText = signedTransaction.map { SignedText(whole: $0) }
    }

    /// Whether Apple has revoked this version (refund, family revoke).
    public var isRevoked: Bool { revocationDate != nil }
}

extension Evidence {
    var roundedToMilliseconds: Evidence {
        if case .receipt(let verifiedAt) = self { return .receipt(verifiedAt: verifiedAt.roundedToMilliseconds) }
        return self
    }
}
