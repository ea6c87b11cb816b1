public import Foundation

/// The latest signed renewal state of one auto-renewable subscription chain.
///
/// Merged like transactions: the version Apple signed last wins.
public struct RenewalInfo: Sendable, Hashable, Codable {
    /// The chain this renewal info describes.
    public var originalTransactionId: String
    /// The product the subscription renews to next period.
    public var autoRenewProductId: String?
    /// The product of the current period.
    public var productId: String?
    /// Whether the subscription will renew.
    public var autoRenewStatus: Bool
    /// Whether Apple is retrying a failed charge.
    public var isInBillingRetryPeriod: Bool
    /// When the billing grace period ends; while it runs the user keeps access.
    public var gracePeriodExpiresDate: Date?
    /// Why the subscription expired (Apple's `expirationIntent`), kept as Apple's number.
    public var expirationIntent: Int?
    /// The App Store environment that signed it.
    public var environment: AppStoreEnvironment
    /// When Apple signed this version; the merge keeps the latest.
    public var signedDate: Date
    /// The compact JWS of this version, when carried.
    public var signedRenewalInfo: String?

    /// Creates renewal info; dates are rounded to whole milliseconds.
    ///
    /// - Parameters:
    ///   - originalTransactionId: The subscription chain.
    ///   - autoRenewProductId: The product of the next period.
    ///   - productId: The product of the current period.
    ///   - autoRenewStatus: Whether it will renew.
    ///   - isInBillingRetryPeriod: Whether Apple retries a failed charge.
    ///   - gracePeriodExpiresDate: The end of the billing grace period.
    ///   - expirationIntent: Apple's reason code for expiry.
    ///   - environment: The environment that signed it.
    ///   - signedDate: When Apple signed it.
    ///   - signedRenewalInfo: The JWS, when carried.
    public init(
        originalTransactionId: String,
        autoRenewProductId: String? = nil,
        productId: String? = nil,
        autoRenewStatus: Bool,
        isInBillingRetryPeriod: Bool = false,
        gracePeriodExpiresDate: Date? = nil,
        expirationIntent: Int? = nil,
        environment: AppStoreEnvironment = .production,
        signedDate: Date,
        signedRenewalInfo: String? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.autoRenewProductId = autoRenewProductId
        self.productId = productId
        self.autoRenewStatus = autoRenewStatus
        self.isInBillingRetryPeriod = isInBillingRetryPeriod
        self.gracePeriodExpiresDate = gracePeriodExpiresDate?.roundedToMilliseconds
        self.expirationIntent = expirationIntent
        self.environment = environment
        self.signedDate = signedDate.roundedToMilliseconds
        self.signedRenewalInfo = signedRenewalInfo
    }
}
