public import Foundation
import StoreSyncCore

/// One outbound webhook delivery, as `GET /v1/admin/webhooks/deliveries` lists it.
public struct WebhookDelivery: Sendable, Hashable, Codable {
    /// The delivery's id: its event's id (``WebhookEvent/id``).
    public var id: Int64
    /// The account the event was recorded for.
    public var accountId: UUID
    /// The event's type.
    public var type: String
    /// Where the delivery stands.
    public var state: WebhookDeliveryState
    /// Attempts made so far.
    public var attempts: Int
    /// When the event happened.
    public var occurredAt: Date
    /// When it started waiting (queued, or retried by an operator): retries end 72 hours later.
    public var pendingSince: Date
    /// When the next attempt is due; absent unless pending and scheduled.
    public var nextAttemptAt: Date?
    /// When the last attempt was made.
    public var lastAttemptAt: Date?
    /// The receiver's HTTP status at the last attempt; absent when it did not answer or while an
    /// attempt is under way.
    public var lastStatus: Int?
    /// Why the last attempt failed; absent while an attempt is under way.
    public var lastError: String?
    /// When the receiver took it.
    public var deliveredAt: Date?

    /// Creates a delivery as listed.
    ///
    /// - Parameters:
    ///   - id: The event's id.
    ///   - accountId: The account.
    ///   - type: The event's type.
    ///   - state: Where it stands.
    ///   - attempts: Attempts so far.
    ///   - occurredAt: When the event happened.
    ///   - pendingSince: When it started waiting.
    ///   - nextAttemptAt: When the next attempt is due.
    ///   - lastAttemptAt: When the last attempt was made.
    ///   - lastStatus: The receiver's last HTTP status.
    ///   - lastError: Why the last attempt failed.
    ///   - deliveredAt: When it was delivered.
    public init(
        id: Int64, accountId: UUID, type: String, state: WebhookDeliveryState, attempts: Int, occurredAt: Date,
        pendingSince: Date, nextAttemptAt: Date? = nil, lastAttemptAt: Date? = nil, lastStatus: Int? = nil,
        lastError: String? = nil, deliveredAt: Date? = nil
    ) {
        self.id = id
        self.accountId = accountId
        self.type = type
        self.state = state
        self.attempts = attempts
        self.occurredAt = occurredAt.roundedToMilliseconds
        self.pendingSince = pendingSince.roundedToMilliseconds
        self.nextAttemptAt = nextAttemptAt?.roundedToMilliseconds
        self.lastAttemptAt = lastAttemptAt?.roundedToMilliseconds
        self.lastStatus = lastStatus
        self.lastError = lastError
        self.deliveredAt = deliveredAt?.roundedToMilliseconds
    }
}

/// Where a webhook delivery stands.
public enum WebhookDeliveryState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Waiting for its first attempt, for a retry, or for the account's earlier deliveries.
    case pending
    /// The receiver answered 2xx.
    case delivered
    /// Retried for 72 hours without a 2xx answer; an operator may retry it.
    case failed
}

/// The body of `GET /v1/admin/webhooks/deliveries`: one page, in id order.
public struct WebhookDeliveryPage: Sendable, Hashable, Codable {
    /// The deliveries of this page.
    public var deliveries: [WebhookDelivery]
    /// Pass as `after` for the next page; absent on the last page.
    public var nextAfter: Int64?

    /// Creates a page.
    ///
    /// - Parameters:
    ///   - deliveries: The deliveries.
    ///   - nextAfter: The cursor of the next page.
    public init(deliveries: [WebhookDelivery], nextAfter: Int64?) {
        self.deliveries = deliveries
        self.nextAfter = nextAfter
    }
}
