import Foundation
import PostgresLibPQ
import StoreSyncAPI

/// An audit event about to be appended.
struct NewEvent: Sendable, Hashable {
    /// The `events.kind` values (the table's CHECK lists the same).
    enum Kind: String, Sendable {
        case purchaseClaimed, ownershipTransferred, purchaseShared, revoked, revocationReversed, renewed, expired
        /// A deleted account's purchase went to the account still holding a copy, or to nobody.
        case purchaseReleased
        /// The account was deleted; the only kind about no purchase.
        case accountDeleted
    }

    let accountId: UUID
    let kind: Kind
    /// The purchase; `nil` only for ``Kind/accountDeleted``.
    let originalTransactionId: String?
    let transactionId: String?
    let fromAccountId: UUID?
    let toAccountId: UUID?
    let reason: String

    init(
        accountId: UUID, kind: Kind, originalTransactionId: String?, transactionId: String? = nil,
        fromAccountId: UUID? = nil, toAccountId: UUID? = nil, reason: String
    ) {
        self.accountId = accountId
        self.kind = kind
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.fromAccountId = fromAccountId
        self.toAccountId = toAccountId
        self.reason = reason
    }
}

/// SQL over `events`, the append-only audit trail and the outbox of the outbound webhook.
///
/// Every path that records an event appends it here, so every event is queued for the webhook
/// in the statement that appends it: committed with its cause, rolled back with it.
struct EventRepository: Sendable {
    /// Whether appended events are queued for delivery to `STORESYNC_WEBHOOK_URL`
    /// (`webhook_deliveries`); without a webhook nothing is queued.
    let queuesWebhookDeliveries: Bool

    /// Appends events in one statement, in the same database transaction as their cause, with
    /// a pending webhook delivery for each when ``queuesWebhookDeliveries``.
    func append(_ events: [NewEvent], on connection: PostgresConnection) async throws {
        _ = try await append(events, bumpingVersionsOf: [], on: connection)
    }

    /// Appends events (as ``append(_:on:)`` says) and bumps the versions of the accounts that
    /// changed, in one statement: the last two writes of every upload, restore and Server
    /// Notification, which depend on nothing the other returns. A round trip less inside a
    /// transaction that holds the accounts' locks, and waits its turn for a core at each one on
    /// a busy server.
    ///
    /// The versions are locked in id order first, as ``AccountRepository/lockVersions(_:on:)``
    /// does, so concurrent bumpers cannot deadlock. A new version is the ETag of the account's
    /// next snapshot.
    ///
    /// - Parameters:
    ///   - events: The events.
    ///   - accountIds: The accounts whose versions go up.
    ///   - endingTransaction: Whether the statement is its transaction's last, COMMIT going with
    ///     it (``PostgresLibPQ/PostgresConnection/queryEndingTransaction(_:logger:)``). Only
    ///     when the transaction holds every one of `accountIds` locked since before: the check
    ///     that each version row was there comes after the commit.
    ///   - connection: A connection inside the transaction.
    /// - Returns: Each account's new version.
    /// - Throws: ``StoreSyncError/accountMissing(_:)`` for an account without a version row.
    func append(
        _ events: [NewEvent], bumpingVersionsOf accountIds: Set<UUID>, endingTransaction: Bool = false,
        on connection: PostgresConnection
    ) async throws -> [UUID: Int64] {
        guard !events.isEmpty || !accountIds.isEmpty else { return [:] }
        let statement: PostgresQuery =
            """
            WITH appended AS (
                INSERT INTO events (account_id, kind, original_transaction_id, transaction_id, from_account_id, to_account_id, reason)
                SELECT * FROM unnest(
                    \(events.map(\.accountId)), \(events.map(\.kind.rawValue)), \(events.map(\.originalTransactionId)),
                    \(events.map(\.transactionId)), \(events.map(\.fromAccountId)), \(events.map(\.toAccountId)),
                    \(events.map(\.reason)))
                RETURNING account_id, event_id
            ), queued AS (
                INSERT INTO webhook_deliveries (account_id, event_id)
                SELECT account_id, event_id FROM appended WHERE \(queuesWebhookDeliveries)
            )
            UPDATE account_versions SET version = version + 1, updated_at = now()
            WHERE account_id IN (
                SELECT account_id FROM account_versions WHERE account_id = ANY(\(Array(accountIds)))
                ORDER BY account_id FOR NO KEY UPDATE)
            RETURNING account_id, version
            """
        let rows = endingTransaction
            ? try await connection.queryEndingTransaction(statement) : try await connection.query(statement)
        var versions: [UUID: Int64] = [:]
        for row in rows {
            let (accountId, version) = try row.decode((UUID, Int64).self)
            versions[accountId] = version
        }
        if let missing = accountIds.first(where: { versions[$0] == nil }) { throw StoreSyncError.accountMissing(missing) }
        return versions
    }

    /// Whether the account has an event of this kind about this transaction of the purchase:
    /// what makes an announced renewal or expiry appear once however often Apple repeats it.
    func contains(
        _ kind: NewEvent.Kind, accountId: UUID, originalTransactionId: String, transactionId: String,
        on connection: PostgresConnection
    ) async throws -> Bool {
        !(try await connection.query(
            """
            SELECT 1 FROM events
            WHERE account_id = \(accountId) AND original_transaction_id = \(originalTransactionId)
              AND kind = \(kind.rawValue) AND transaction_id = \(transactionId)
            LIMIT 1
            """
        ).isEmpty)
    }

    /// Every event about a purchase, oldest first.
    func events(of originalTransactionId: String, on connection: PostgresConnection) async throws -> [PurchaseEvent] {
        try await connection.query(
            """
            SELECT event_id, account_id, kind, original_transaction_id, transaction_id, from_account_id, to_account_id,
                   reason, occurred_at
            FROM events WHERE original_transaction_id = \(originalTransactionId)
            ORDER BY event_id
            """
        ).map { row in
            let (eventId, accountId, kind, originalId, transactionId, from, to, reason, occurredAt)
                = try row.decode((Int64, UUID, String, String, String?, UUID?, UUID?, String, Date).self)
            return PurchaseEvent(
                eventId: eventId, accountId: accountId, kind: kind, originalTransactionId: originalId,
                transactionId: transactionId, fromAccountId: from, toAccountId: to, reason: reason, occurredAt: occurredAt)
        }
    }
}
