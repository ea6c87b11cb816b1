/// The kind of an App Store Server Notification V2 (`notificationType`).
public struct NotificationType: AppleStringValue {
    /// Apple's spelling of the value.
    public var rawValue: String

    /// Wraps Apple's spelling, known or not.
    ///
    /// - Parameter rawValue: The value as it appears in the signed JSON.
    public init(rawValue: String) { self.rawValue = rawValue }
}

extension NotificationType {
    /// A customer subscribed (subtype `INITIAL_BUY` or `RESUBSCRIBE`).
    public static let subscribed: Self = "SUBSCRIBED"
    /// A subscription renewed.
    public static let didRenew: Self = "DID_RENEW"
    /// The customer turned auto-renew on or off.
    public static let didChangeRenewalStatus: Self = "DID_CHANGE_RENEWAL_STATUS"
    /// The customer changed the product the subscription renews to.
    public static let didChangeRenewalPref: Self = "DID_CHANGE_RENEWAL_PREF"
    /// A renewal failed to bill (subtype `GRACE_PERIOD` while access continues).
    public static let didFailToRenew: Self = "DID_FAIL_TO_RENEW"
    /// The billing grace period ended without recovery.
    public static let gracePeriodExpired: Self = "GRACE_PERIOD_EXPIRED"
    /// A subscription expired.
    public static let expired: Self = "EXPIRED"
    /// Apple refunded a transaction.
    public static let refund: Self = "REFUND"
    /// Apple declined a refund request.
    public static let refundDeclined: Self = "REFUND_DECLINED"
    /// Apple reversed a refund it had granted.
    public static let refundReversed: Self = "REFUND_REVERSED"
    /// Family Sharing access was revoked.
    public static let revoke: Self = "REVOKE"
    /// The developer extended one subscription's renewal date.
    public static let renewalExtended: Self = "RENEWAL_EXTENDED"
    /// A mass renewal-date extension progressed (carries a `summary`).
    public static let renewalExtension: Self = "RENEWAL_EXTENSION"
    /// A one-time purchase (consumable, non-consumable, non-renewing) completed.
    public static let oneTimeCharge: Self = "ONE_TIME_CHARGE"
    /// A test notification requested through the App Store Server API.
    public static let test: Self = "TEST"
    /// Apple asks for consumption information about a refund request.
    public static let consumptionRequest: Self = "CONSUMPTION_REQUEST"
    /// A customer redeemed an offer.
    public static let offerRedeemed: Self = "OFFER_REDEEMED"
    /// The system informed the customer of a price increase.
    public static let priceIncrease: Self = "PRICE_INCREASE"
    /// An external purchase token was created or not reported.
    public static let externalPurchaseToken: Self = "EXTERNAL_PURCHASE_TOKEN"
    /// Transaction metadata changed.
    public static let metadataUpdate: Self = "METADATA_UPDATE"
    /// A subscription migrated between products.
    public static let migration: Self = "MIGRATION"
    /// A subscription's price changed.
    public static let priceChange: Self = "PRICE_CHANGE"
    /// A customer withdrew consent.
    public static let rescindConsent: Self = "RESCIND_CONSENT"
}

extension NotificationType {
    /// Every type above: the ones Apple documents as this library knows them.
    public static let documented: Set<NotificationType> = [
        .subscribed, .didRenew, .didChangeRenewalStatus, .didChangeRenewalPref, .didFailToRenew, .gracePeriodExpired,
        .expired, .refund, .refundDeclined, .refundReversed, .revoke, .renewalExtended, .renewalExtension,
        .oneTimeCharge, .test, .consumptionRequest, .offerRedeemed, .priceIncrease, .externalPurchaseToken,
        .metadataUpdate, .migration, .priceChange, .rescindConsent,
    ]
}
