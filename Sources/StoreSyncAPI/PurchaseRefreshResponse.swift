public import Foundation
public import StoreSyncCore

/// The body of `POST /v1/admin/purchases/{originalTransactionId}/refresh`: what the purchase's
/// history and status from the App Store Server API changed.
public struct PurchaseRefreshResponse: Sendable, Hashable, Codable {
    /// A transaction version stored for an account.
    public struct Version: Sendable, Hashable, Codable {
        /// The account it was stored for.
        public var accountId: UUID
        /// The transaction.
        public var transactionId: String
        /// When Apple signed this version.
        public var signedDate: Date

        /// Describes a stored version.
        ///
        /// - Parameters:
        ///   - accountId: The account.
        ///   - transactionId: The transaction.
        ///   - signedDate: When Apple signed it.
        public init(accountId: UUID, transactionId: String, signedDate: Date) {
            self.accountId = accountId
            self.transactionId = transactionId
            self.signedDate = signedDate.roundedToMilliseconds
        }
    }

    /// An event appended to the audit trail.
    public struct Event: Sendable, Hashable, Codable {
        /// The account it was recorded for.
        public var accountId: UUID
        /// What happened: `purchaseClaimed`, `revoked`, `revocationReversed`, `renewed`, `expired`.
        public var kind: String
        /// The transaction concerned, when the event is about one.
        public var transactionId: String?
        /// Why, for people.
        public var reason: String

        /// Describes an event.
        ///
        /// - Parameters:
        ///   - accountId: The account.
        ///   - kind: What happened.
        ///   - transactionId: The transaction concerned.
        ///   - reason: Why.
        public init(accountId: UUID, kind: String, transactionId: String? = nil, reason: String) {
            self.accountId = accountId
            self.kind = kind
            self.transactionId = transactionId
            self.reason = reason
        }
    }

    /// An account whose version changed, and its new version (its snapshot's next ETag).
    public struct AccountVersion: Sendable, Hashable, Codable {
        /// The account.
        public var accountId: UUID
        /// Its new version.
        public var version: Int64

        /// Describes a new account version.
        ///
        /// - Parameters:
        ///   - accountId: The account.
        ///   - version: Its new version.
        public init(accountId: UUID, version: Int64) {
            self.accountId = accountId
            self.version = version
        }
    }

    /// The purchase.
    public var originalTransactionId: String
    /// The environment whose App Store Server API answered.
    public var environment: AppStoreEnvironment
    /// The accounts that hold the purchase; empty when none does (then nothing was stored).
    public var holders: [UUID]
    /// The transaction versions stored.
    public var versionsAdded: [Version]
    /// The accounts whose renewal info of the purchase was replaced.
    public var renewalInfoUpdated: [UUID]
    /// The events appended.
    public var events: [Event]
    /// The accounts whose version changed.
    public var accountVersions: [AccountVersion]
    /// Signed items Apple returned that failed verification; they were left out.
    public var skippedItems: Int

    /// Describes a refresh.
    ///
    /// - Parameters:
    ///   - originalTransactionId: The purchase.
    ///   - environment: The environment that answered.
    ///   - holders: The accounts holding it.
    ///   - versionsAdded: The versions stored.
    ///   - renewalInfoUpdated: The accounts whose renewal info was replaced.
    ///   - events: The events appended.
    ///   - accountVersions: The new account versions.
    ///   - skippedItems: The items refused.
    public init(
        originalTransactionId: String, environment: AppStoreEnvironment, holders: [UUID], versionsAdded: [Version],
        renewalInfoUpdated: [UUID], events: [Event], accountVersions: [AccountVersion], skippedItems: Int
    ) {
        self.originalTransactionId = originalTransactionId
        self.environment = environment
        self.holders = holders
        self.versionsAdded = versionsAdded
        self.renewalInfoUpdated = renewalInfoUpdated
        self.events = events
        self.accountVersions = accountVersions
        self.skippedItems = skippedItems
    }
}
