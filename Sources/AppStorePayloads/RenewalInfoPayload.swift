public import Foundation

/// The decoded payload of a signed renewal info (`JWSRenewalInfoDecodedPayload`), field for
/// field as Apple names it. Dates are Apple's milliseconds since 1970.
public struct RenewalInfoPayload: Sendable, Hashable, Codable {
    /// Why the subscription expired (1 cancelled, 2 billing error, 3 price increase declined,
    /// 4 product unavailable, 5 other).
    public var expirationIntent: Int?
    /// The subscription chain.
    public var originalTransactionId: String?
    /// The product the subscription renews to.
    public var autoRenewProductId: String?
    /// The product of the current period.
    public var productId: String?
    /// 1 when the subscription will renew, 0 when the customer turned renewal off.
    public var autoRenewStatus: Int?
    /// Whether Apple is retrying a failed charge.
    public var isInBillingRetryPeriod: Bool?
    /// Whether the customer consented to a price increase (0 not yet, 1 consented).
    public var priceIncreaseStatus: Int?
    /// When the billing grace period ends.
    public var gracePeriodExpiresDate: Date?
    /// The kind of offer that applies at renewal.
    public var offerType: Int?
    /// The offer's identifier.
    public var offerIdentifier: String?
    /// When Apple signed this payload.
    public var signedDate: Date?
    /// The environment in Apple's spelling.
    public var environment: String?
    /// The start of the latest run of continuous subscription.
    public var recentSubscriptionStartDate: Date?
    /// When the subscription renews next.
    public var renewalDate: Date?
    /// The currency of ``renewalPrice``.
    public var currency: String?
    /// The renewal price in milliunits of ``currency``.
    public var renewalPrice: Int64?
    /// How the renewal offer is paid.
    public var offerDiscountType: String?
    /// Win-back offers the customer may redeem.
    public var eligibleWinBackOfferIds: [String]?
    /// The app account UUID of the subscription.
    public var appAccountToken: UUID?
    /// The app transaction's id.
    public var appTransactionId: String?
    /// The offer's duration (ISO 8601).
    public var offerPeriod: String?

    /// Creates a payload; every field not named defaults to absent.
    ///
    /// - Parameters:
    ///   - originalTransactionId: The subscription chain.
    ///   - autoRenewProductId: The product of the next period.
    ///   - productId: The product of the current period.
    ///   - autoRenewStatus: 1 when it will renew.
    ///   - signedDate: When Apple signed it.
    ///   - environment: Apple's spelling of the environment.
    public init(
        originalTransactionId: String? = nil,
        autoRenewProductId: String? = nil,
        productId: String? = nil,
        autoRenewStatus: Int? = nil,
        signedDate: Date? = nil,
        environment: String? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.autoRenewProductId = autoRenewProductId
        self.productId = productId
        self.autoRenewStatus = autoRenewStatus
        self.signedDate = signedDate
        self.environment = environment
    }
}
