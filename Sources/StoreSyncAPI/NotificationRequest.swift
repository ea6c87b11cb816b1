/// The body of `POST /v1/notifications/appstore`: App Store Server Notifications V2.
public struct NotificationRequest: Sendable, Hashable, Codable {
    /// The compact JWS of the notification.
    public var signedPayload: String

    /// Creates a notification body.
    ///
    /// - Parameter signedPayload: The JWS Apple sent.
    public init(signedPayload: String) { self.signedPayload = signedPayload }
}
