public import Foundation
import StoreSyncCore

/// One entry of the audit trail: an ownership change, a revocation, a reversal.
public struct PurchaseEvent: Sendable, Hashable, Codable {
    /// The event's position in the trail.
    public var eventId: Int64
    /// The account the event was recorded for.
    public var accountId: UUID
    /// What happened, e.g. `transferred`, `revoked`, `revocationReversed`.
    public var kind: String
    /// The purchase concerned.
    public var originalTransactionId: String
    /// The transaction concerned, when the event is about one.
    public var transactionId: String?
    /// The previous owner, for ownership changes.
    public var fromAccountId: UUID?
    /// The new owner, for ownership changes.
    public var toAccountId: UUID?
    /// Why, for people.
    public var reason: String
    /// When it happened.
    public var occurredAt: Date

    /// Creates an event; the date is rounded to milliseconds.
    ///
    /// - Parameters:
    ///   - eventId: The event's position in the trail.
    ///   - accountId: The account it was recorded for.
    ///   - kind: What happened.
    ///   - originalTransactionId: The purchase.
    ///   - transactionId: The transaction, when one is concerned.
    ///   - fromAccountId: The previous owner.
    ///   - toAccountId: The new owner.
    ///   - reason: Why.
    ///   - occurredAt: When.
    public init(
        eventId: Int64,
        accountId: UUID,
        kind: String,
        originalTransactionId: String,
        transactionId: String? = nil,
        fromAccountId: UUID? = nil,
        toAccountId: UUID? = nil,
        reason: String,
        occurredAt: Date
    ) {
        self.eventId = eventId
        self.accountId = accountId
        self.kind = kind
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.fromAccountId = fromAccountId
        self.toAccountId = toAccountId
        self.reason = reason
        self.occurredAt = occurredAt.roundedToMilliseconds
    }
}
