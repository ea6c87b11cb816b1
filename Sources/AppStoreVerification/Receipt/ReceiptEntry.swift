public import AppStorePayloads
/// One in-app purchase entry of a verifyReceipt answer (`in_app` or `latest_receipt_info`),
/// as Apple sends it: every value a string, dates as `*_ms` milliseconds.
public struct ReceiptEntry: Sendable, Hashable, Codable {
    /// The number bought.
    public var quantity: String?
    /// The product identifier.
    public var productId: String?
    /// This transaction's id.
    public var transactionId: String?
    /// The purchase this transaction belongs to.
    public var originalTransactionId: String?
    /// When it was charged, in milliseconds since 1970.
    public var purchaseDateMs: String?
    /// When the original purchase was made, in milliseconds since 1970.
    public var originalPurchaseDateMs: String?
    /// When the subscription period ends, in milliseconds since 1970.
    public var expiresDateMs: String?
    /// When Apple refunded it, in milliseconds since 1970.
    public var cancellationDateMs: String?
    /// Why Apple refunded it: `0` other, `1` an issue within the app.
    public var cancellationReason: String?
    /// `true` when a higher subscription of the same group replaced it.
    public var isUpgraded: String?
    /// `PURCHASED` or `FAMILY_SHARED`.
    public var inAppOwnershipType: InAppOwnershipType?
    /// The subscription group.
    public var subscriptionGroupIdentifier: String?
    /// The subscription purchase event's id.
    public var webOrderLineItemId: String?
    /// `true` during a free trial.
    public var isTrialPeriod: String?
    /// The app account UUID the purchase was made with.
    public var appAccountToken: String?

    enum CodingKeys: String, CodingKey {
        case quantity
        case productId = "product_id"
        case transactionId = "transaction_id"
        case originalTransactionId = "original_transaction_id"
        case purchaseDateMs = "purchase_date_ms"
        case originalPurchaseDateMs = "original_purchase_date_ms"
        case expiresDateMs = "expires_date_ms"
        case cancellationDateMs = "cancellation_date_ms"
        case cancellationReason = "cancellation_reason"
        case isUpgraded = "is_upgraded"
        case inAppOwnershipType = "in_app_ownership_type"
        case subscriptionGroupIdentifier = "subscription_group_identifier"
        case webOrderLineItemId = "web_order_line_item_id"
        case isTrialPeriod = "is_trial_period"
        case appAccountToken = "app_account_token"
    }

    /// Creates an entry; every field not named defaults to absent.
    ///
    /// - Parameters:
    ///   - productId: The product identifier.
    ///   - transactionId: This transaction's id.
    ///   - originalTransactionId: The purchase it belongs to.
    ///   - purchaseDateMs: When it was charged.
    ///   - expiresDateMs: When the subscription period ends.
    public init(
        productId: String? = nil,
        transactionId: String? = nil,
        originalTransactionId: String? = nil,
        purchaseDateMs: String? = nil,
        expiresDateMs: String? = nil
    ) {
        self.productId = productId
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.purchaseDateMs = purchaseDateMs
        self.expiresDateMs = expiresDateMs
    }
}
