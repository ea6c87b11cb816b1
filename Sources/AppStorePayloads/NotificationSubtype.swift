/// The detail of a notification (`subtype`), when Apple gives one.
public struct NotificationSubtype: AppleStringValue {
    /// Apple's spelling of the value.
    public var rawValue: String

    /// Wraps Apple's spelling, known or not.
    ///
    /// - Parameter rawValue: The value as it appears in the signed JSON.
    public init(rawValue: String) { self.rawValue = rawValue }
}

extension NotificationSubtype {
    /// A first purchase of the subscription.
    public static let initialBuy: Self = "INITIAL_BUY"
    /// A resubscription after expiry.
    public static let resubscribe: Self = "RESUBSCRIBE"
    /// A downgrade, effective at the next renewal.
    public static let downgrade: Self = "DOWNGRADE"
    /// An upgrade, effective immediately.
    public static let upgrade: Self = "UPGRADE"
    /// Auto-renew was turned on.
    public static let autoRenewEnabled: Self = "AUTO_RENEW_ENABLED"
    /// Auto-renew was turned off.
    public static let autoRenewDisabled: Self = "AUTO_RENEW_DISABLED"
    /// Expired because the customer chose not to renew.
    public static let voluntary: Self = "VOLUNTARY"
    /// Expired after billing retry ended without success.
    public static let billingRetry: Self = "BILLING_RETRY"
    /// Expired because the customer did not consent to a price increase.
    public static let priceIncrease: Self = "PRICE_INCREASE"
    /// The renewal failed but the billing grace period keeps access.
    public static let gracePeriod: Self = "GRACE_PERIOD"
    /// A price increase awaits the customer's answer.
    public static let pending: Self = "PENDING"
    /// The customer accepted a price increase.
    public static let accepted: Self = "ACCEPTED"
    /// A renewal succeeded after billing retry.
    public static let billingRecovery: Self = "BILLING_RECOVERY"
    /// Expired because the product was no longer for sale.
    public static let productNotForSale: Self = "PRODUCT_NOT_FOR_SALE"
    /// A mass extension completed for every eligible subscriber.
    public static let summary: Self = "SUMMARY"
    /// A renewal-date extension failed for one subscription.
    public static let failure: Self = "FAILURE"
    /// An external purchase token was not reported.
    public static let unreported: Self = "UNREPORTED"
    /// An external purchase token is still active.
    public static let activeTokenReminder: Self = "ACTIVE_TOKEN_REMINDER"
    /// An external purchase token was created.
    public static let created: Self = "CREATED"
}
