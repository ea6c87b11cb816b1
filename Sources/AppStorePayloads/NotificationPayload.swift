public import Foundation

/// The decoded `signedPayload` of an App Store Server Notification V2
/// (`ResponseBodyV2DecodedPayload`).
public struct NotificationPayload: Sendable, Hashable, Codable {
    /// What happened.
    public var notificationType: NotificationType
    /// The detail of what happened, when Apple gives one.
    public var subtype: NotificationSubtype?
    /// The notification's id: Apple may deliver one notification more than once.
    public var notificationUUID: UUID
    /// The app, environment and signed transaction and renewal info concerned.
    public var data: NotificationData?
    /// The notification format version (`2.0`).
    public var version: String?
    /// When Apple signed the notification.
    public var signedDate: Date
    /// The outcome of a mass renewal-date extension, instead of `data`.
    public var summary: NotificationSummary?
    /// The external purchase token concerned, instead of `data`.
    public var externalPurchaseToken: ExternalPurchaseToken?

    /// Creates a notification payload.
    ///
    /// - Parameters:
    ///   - notificationType: What happened.
    ///   - subtype: The detail.
    ///   - notificationUUID: The notification's id.
    ///   - data: The app data and signed transaction/renewal info.
    ///   - version: The format version.
    ///   - signedDate: When Apple signed it.
    ///   - summary: A mass-extension summary.
    ///   - externalPurchaseToken: An external purchase token.
    public init(
        notificationType: NotificationType,
        subtype: NotificationSubtype? = nil,
        notificationUUID: UUID,
        data: NotificationData? = nil,
        version: String? = "2.0",
        signedDate: Date,
        summary: NotificationSummary? = nil,
        externalPurchaseToken: ExternalPurchaseToken? = nil
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.data = data
        self.version = version
        self.signedDate = signedDate
        self.summary = summary
        self.externalPurchaseToken = externalPurchaseToken
    }
}
