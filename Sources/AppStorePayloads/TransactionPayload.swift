public import Foundation
public import StoreSyncCore

/// The decoded payload of a StoreKit 2 signed transaction (`JWSTransactionDecodedPayload`),
/// field for field as Apple names it.
///
/// Every field is optional as in Apple's own libraries; ``VerifiedTransaction/record``
/// requires the ones StoreSync needs. Dates are Apple's milliseconds since 1970.
public struct TransactionPayload: Sendable, Hashable, Codable {
    /// The purchase this transaction belongs to.
    public var originalTransactionId: String?
    /// This transaction's id.
    public var transactionId: String?
    /// The id of a subscription purchase event across devices.
    public var webOrderLineItemId: String?
    /// The app's bundle id.
    public var bundleId: String?
    /// The product identifier.
    public var productId: String?
    /// The subscription group, for subscriptions.
    public var subscriptionGroupIdentifier: String?
    /// When this transaction was charged or restored.
    public var purchaseDate: Date?
    /// When the original purchase was made.
    public var originalPurchaseDate: Date?
    /// When the subscription period ends.
    public var expiresDate: Date?
    /// How many were bought.
    public var quantity: Int?
    /// The product type in Apple's spelling.
    public var type: AppStoreProductType?
    /// The app account UUID the purchase was made with.
    public var appAccountToken: UUID?
    /// Purchased or family-shared.
    public var inAppOwnershipType: InAppOwnershipType?
    /// When Apple signed this payload.
    public var signedDate: Date?
    /// Why Apple refunded or revoked it.
    public var revocationReason: RevocationReason?
    /// When Apple refunded or revoked it.
    public var revocationDate: Date?
    /// Whether a higher subscription of the same group replaced it.
    public var isUpgraded: Bool?
    /// The kind of offer redeemed (1 introductory, 2 promotional, 3 offer code, 4 win-back).
    public var offerType: Int?
    /// The offer's identifier.
    public var offerIdentifier: String?
    /// The environment in Apple's spelling (`Production`, `Sandbox`, `Xcode`, `LocalTesting`).
    public var environment: String?
    /// The storefront's three-letter country code.
    public var storefront: String?
    /// Apple's storefront id.
    public var storefrontId: String?
    /// Purchase or renewal.
    public var transactionReason: TransactionReason?
    /// The currency of ``price`` (ISO 4217).
    public var currency: String?
    /// The price in milliunits of ``currency``.
    public var price: Int64?
    /// How an offer is paid (`FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`).
    public var offerDiscountType: String?
    /// The app transaction's id.
    public var appTransactionId: String?
    /// The offer's duration (ISO 8601).
    public var offerPeriod: String?
    /// How Apple revoked it (full or prorated refund, family revoke).
    public var revocationType: RevocationType?
    /// The share refunded, in thousandths of a percent, for a prorated refund.
    public var revocationPercentage: Int?

    /// Apple's names, in the order of the fields above: the one list StoreSyncWire's fast
    /// reader derives its own from.
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case originalTransactionId, transactionId, webOrderLineItemId, bundleId, productId, subscriptionGroupIdentifier
        case purchaseDate, originalPurchaseDate, expiresDate, quantity, type, appAccountToken, inAppOwnershipType
        case signedDate, revocationReason, revocationDate, isUpgraded, offerType, offerIdentifier, environment
        case storefront, storefrontId, transactionReason, currency, price, offerDiscountType, appTransactionId
        case offerPeriod, revocationType, revocationPercentage
    }

    /// Creates a payload; every field defaults to absent.
    ///
    /// - Parameters:
    ///   - originalTransactionId: The purchase this transaction belongs to.
    ///   - transactionId: This transaction's id.
    ///   - bundleId: The app's bundle id.
    ///   - productId: The product identifier.
    ///   - type: The product type.
    ///   - purchaseDate: When it was charged.
    ///   - originalPurchaseDate: When the original purchase was made.
    ///   - expiresDate: When the subscription period ends.
    ///   - signedDate: When Apple signed it.
    ///   - environment: Apple's spelling of the environment.
    public init(
        originalTransactionId: String? = nil,
        transactionId: String? = nil,
        bundleId: String? = nil,
        productId: String? = nil,
        type: AppStoreProductType? = nil,
        purchaseDate: Date? = nil,
        originalPurchaseDate: Date? = nil,
        expiresDate: Date? = nil,
        signedDate: Date? = nil,
        environment: String? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.bundleId = bundleId
        self.productId = productId
        self.type = type
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.signedDate = signedDate
        self.environment = environment
    }
}
