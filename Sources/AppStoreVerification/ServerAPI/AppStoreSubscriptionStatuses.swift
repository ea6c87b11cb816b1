/// A customer's auto-renewable subscriptions from Get All Subscription Statuses, verified.
public struct AppStoreSubscriptionStatuses: Sendable, Hashable {
    /// One subscription (original transaction) of a subscription group, as Apple last saw it.
    public struct Item: Sendable, Hashable {
        /// Apple's status of the subscription.
        public var status: AppStoreSubscriptionStatus
        /// The subscription's newest transaction, verified.
        public var transaction: VerifiedTransaction
        /// Its renewal info, verified, when Apple sent one.
        public var renewalInfo: VerifiedRenewalInfo?

        /// Describes a subscription's status.
        ///
        /// - Parameters:
        ///   - status: Apple's status.
        ///   - transaction: The newest transaction.
        ///   - renewalInfo: The renewal info.
        public init(status: AppStoreSubscriptionStatus, transaction: VerifiedTransaction, renewalInfo: VerifiedRenewalInfo?) {
            self.status = status
            self.transaction = transaction
            self.renewalInfo = renewalInfo
        }
    }

    /// Every listed subscription's newest transaction, for merging into a ledger.
    public var transactions: [VerifiedTransaction] { groups.flatMap { $0.items.map(\.transaction) } }
    /// Every listed subscription's renewal info, for merging into a ledger.
    public var renewalInfos: [VerifiedRenewalInfo] { groups.flatMap { $0.items.compactMap(\.renewalInfo) } }

    /// Subscriptions by subscription group, as Apple lists them.
    public var groups: [Group]
    /// The signed items that were refused; their subscriptions are left out of ``groups``.
    public var skipped: [AppStoreSkippedItem]

    /// The subscriptions of one subscription group.
    public struct Group: Sendable, Hashable {
        /// The group's id (`subscriptionGroupIdentifier`).
        public var subscriptionGroupIdentifier: String
        /// One item per original transaction in the group.
        public var items: [Item]

        /// Describes a group.
        ///
        /// - Parameters:
        ///   - subscriptionGroupIdentifier: The group's id.
        ///   - items: Its subscriptions.
        public init(subscriptionGroupIdentifier: String, items: [Item]) {
            self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
            self.items = items
        }
    }

    /// Describes a customer's statuses.
    ///
    /// - Parameters:
    ///   - groups: The subscription groups.
    ///   - skipped: The refused items.
    public init(groups: [Group], skipped: [AppStoreSkippedItem] = []) {
        self.groups = groups
        self.skipped = skipped
    }
}
