/// What Get Test Notification Status says about a requested test notification.
public struct AppStoreTestNotificationStatus: Sendable, Hashable {
    /// The `TEST` notification Apple sent, verified; `nil` when its payload was refused.
    public var notification: VerifiedNotification?
    /// Apple's delivery attempts, oldest first.
    public var sendAttempts: [AppStoreSendAttempt]
    /// The signed payload, when it was refused.
    public var skipped: [AppStoreSkippedItem]

    /// Whether an attempt reached the server and got a 2xx answer.
    public var arrived: Bool { sendAttempts.contains { $0.sendAttemptResult == .success } }

    /// Describes a status.
    ///
    /// - Parameters:
    ///   - notification: The verified notification.
    ///   - sendAttempts: The delivery attempts.
    ///   - skipped: The refused payload.
    public init(
        notification: VerifiedNotification?, sendAttempts: [AppStoreSendAttempt], skipped: [AppStoreSkippedItem] = []
    ) {
        self.notification = notification
        self.sendAttempts = sendAttempts
        self.skipped = skipped
    }
}
