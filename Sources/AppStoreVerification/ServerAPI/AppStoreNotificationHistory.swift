/// Notifications from Get Notification History, verified: one page, or every page a
/// collecting call fetched.
public struct AppStoreNotificationHistory: Sendable, Hashable {
    /// A notification Apple sent, or tried to send, with its delivery attempts.
    public struct Item: Sendable, Hashable {
        /// The notification, verified with its nested transaction and renewal info.
        public var notification: VerifiedNotification
        /// Apple's delivery attempts, oldest first.
        public var sendAttempts: [AppStoreSendAttempt]

        /// Describes an item.
        ///
        /// - Parameters:
        ///   - notification: The verified notification.
        ///   - sendAttempts: The delivery attempts.
        public init(notification: VerifiedNotification, sendAttempts: [AppStoreSendAttempt]) {
            self.notification = notification
            self.sendAttempts = sendAttempts
        }
    }

    /// The notifications that passed verification, in Apple's order.
    public var items: [Item]
    /// The signed payloads that did not.
    public var skipped: [AppStoreSkippedItem]
    /// The token for the next page, when ``hasMore``.
    public var paginationToken: String?
    /// Whether Apple has more pages.
    public var hasMore: Bool

    /// Describes a history.
    ///
    /// - Parameters:
    ///   - items: The verified notifications.
    ///   - skipped: The refused payloads.
    ///   - paginationToken: The next page's token.
    ///   - hasMore: Whether more pages follow.
    public init(items: [Item], skipped: [AppStoreSkippedItem] = [], paginationToken: String?, hasMore: Bool) {
        self.items = items
        self.skipped = skipped
        self.paginationToken = paginationToken
        self.hasMore = hasMore
    }
}

extension AppStoreNotificationHistory: AppStorePagedResult {
    var continuation: String? { paginationToken }

    mutating func append(contentsOf next: Self) {
        items += next.items
        skipped += next.skipped
        paginationToken = next.paginationToken
        hasMore = next.hasMore
    }
}
