public import Foundation
import StoreSyncCore

/// The body StoreSync POSTs to `STORESYNC_WEBHOOK_URL` for each event of the audit trail.
///
/// The request carries `StoreSync-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret,
/// "<t>.<raw body>")>`; check it over the raw bytes before decoding. Delivery is at least once,
/// in order per account: a receiver that sees an ``id`` again has already handled it.
public struct WebhookEvent: Sendable, Hashable, Codable {
    /// The event's id, unique in the deployment: the key for de-duplication.
    public var id: Int64
    /// What happened: `purchaseClaimed`, `ownershipTransferred`, `revoked`, `renewed`, …
    public var type: String
    /// The account the event was recorded for.
    public var accountId: UUID
    /// When it happened.
    public var occurredAt: Date
    /// The event's details.
    public var data: WebhookEventData

    /// Creates an event body; the date is rounded to milliseconds.
    ///
    /// - Parameters:
    ///   - id: The event's id.
    ///   - type: What happened.
    ///   - accountId: The account.
    ///   - occurredAt: When.
    ///   - data: The details.
    public init(id: Int64, type: String, accountId: UUID, occurredAt: Date, data: WebhookEventData) {
        self.id = id
        self.type = type
        self.accountId = accountId
        self.occurredAt = occurredAt.roundedToMilliseconds
        self.data = data
    }
}

/// The details of a ``WebhookEvent``: the purchase and, for ownership changes, both accounts.
public struct WebhookEventData: Sendable, Hashable, Codable {
    /// The purchase; absent for events about no purchase (an account's deletion).
    public var originalTransactionId: String?
    /// The transaction, when the event is about one.
    public var transactionId: String?
    /// The previous owner, for ownership changes.
    public var fromAccountId: UUID?
    /// The new owner, for ownership changes.
    public var toAccountId: UUID?
    /// Why, for people.
    public var reason: String

    /// Creates the details.
    ///
    /// - Parameters:
    ///   - originalTransactionId: The purchase.
    ///   - transactionId: The transaction.
    ///   - fromAccountId: The previous owner.
    ///   - toAccountId: The new owner.
    ///   - reason: Why.
    public init(
        originalTransactionId: String?, transactionId: String? = nil, fromAccountId: UUID? = nil,
        toAccountId: UUID? = nil, reason: String
    ) {
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.fromAccountId = fromAccountId
        self.toAccountId = toAccountId
        self.reason = reason
    }
}
