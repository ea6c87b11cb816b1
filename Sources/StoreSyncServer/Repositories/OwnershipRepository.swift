import Foundation
import PostgresLibPQ
import StoreSyncCore

/// Who owns a purchase.
struct PurchaseOwner: Sendable, Hashable {
    let originalTransactionId: String
    /// `nil` while no account holds the purchase.
    let accountId: UUID?
    /// Fixed by the transaction's appAccountToken: no transfer policy applies.
    let boundByToken: Bool
    /// When the purchase last moved from one account to another; `nil`: never.
    var movedAt: Date? = nil
}

/// A purchase's new owner.
struct OwnerChange: Sendable, Hashable {
    let originalTransactionId: String
    let accountId: UUID
    let boundByToken: Bool
    /// When it moved from another account; `nil` for a claim or a binding, which keep the last
    /// move's time.
    var movedAt: Date? = nil
}

/// SQL over `purchase_owners`, the one global table: a purchase belongs to one account at a time.
struct OwnershipRepository: Sendable {
    /// Locks and returns the owner rows of these purchases (in id order); rows stay locked until
    /// the database transaction ends, so two accounts racing for a purchase serialise.
    func lockOwners(_ originalTransactionIds: [String], on connection: PostgresConnection) async throws
        -> [String: PurchaseOwner]
    {
        guard !originalTransactionIds.isEmpty else { return [:] }
        let rows = try await connection.query(
            """
            SELECT original_transaction_id, account_id, bound_by_token, moved_at FROM purchase_owners
            WHERE original_transaction_id = ANY(\(originalTransactionIds))
            ORDER BY original_transaction_id
            FOR UPDATE
            """)
        var owners: [String: PurchaseOwner] = [:]
        for row in rows {
            let (id, accountId, bound, movedAt) = try row.decode((String, UUID?, Bool, Date?).self)
            owners[id] = PurchaseOwner(originalTransactionId: id, accountId: accountId, boundByToken: bound, movedAt: movedAt)
        }
        return owners
    }

    /// Those of the purchases that `accountId` owns, read without a lock (see
    /// ``SyncTransaction/decide(_:before:)`` for when that is enough).
    func owners(_ originalTransactionIds: [String], ownedBy accountId: UUID, on connection: PostgresConnection)
        async throws -> [String: PurchaseOwner]
    {
        guard !originalTransactionIds.isEmpty else { return [:] }
        // Filtered here rather than by `account_id = …`: a generic plan would then walk the
        // account's index and test each of its purchases against the whole array.
        let rows = try await connection.query(
            """
            SELECT original_transaction_id, account_id, bound_by_token FROM purchase_owners
            WHERE original_transaction_id = ANY(\(originalTransactionIds))
            """)
        var owners: [String: PurchaseOwner] = [:]
        for row in rows {
            let (id, owner, bound) = try row.decode((String, UUID?, Bool).self)
            guard owner == accountId else { continue }
            owners[id] = PurchaseOwner(originalTransactionId: id, accountId: accountId, boundByToken: bound)
        }
        return owners
    }

    /// Inserts an owner row for each purchase that has none, with the owner given (`nil`:
    /// unowned), and answers the purchases whose row this inserted: this database transaction
    /// holds those rows until it ends. Rows that exist are left as they are, for
    /// ``lockOwners(_:on:)``. A concurrent insert of the same purchase waits for the other
    /// database transaction, so two accounts racing for it serialise here; rows are inserted in
    /// id order, as ``lockOwners(_:on:)`` locks them, so racing transactions queue instead of
    /// deadlocking.
    @discardableResult
    func insertMissing(
        _ rows: [(originalTransactionId: String, environment: AppStoreEnvironment, owner: OwnerChange?)],
        on connection: PostgresConnection
    ) async throws -> Set<String> {
        guard !rows.isEmpty else { return [] }
        let inserted = try await connection.query(
            """
            INSERT INTO purchase_owners (original_transaction_id, account_id, environment, bound_by_token)
            SELECT id, account_id, env, bound
            FROM unnest(
                \(rows.map(\.originalTransactionId)), \(rows.map { $0.owner?.accountId }),
                \(rows.map(\.environment.rawValue)), \(rows.map { $0.owner?.boundByToken ?? false })
            ) AS p(id, account_id, env, bound)
            ORDER BY id
            ON CONFLICT (original_transaction_id) DO NOTHING
            RETURNING original_transaction_id
            """)
        return Set(try inserted.map { try $0.decode(String.self) })
    }

    /// Sets the owners of locked purchases, all in one statement; a change that is a move also
    /// records when it moved.
    func setOwners(_ changes: [OwnerChange], on connection: PostgresConnection) async throws {
        guard !changes.isEmpty else { return }
        try await connection.execute(
            """
            UPDATE purchase_owners SET account_id = change.account_id, bound_by_token = change.bound, claimed_at = now(),
                moved_at = coalesce(change.moved_at, purchase_owners.moved_at)
            FROM unnest(
                \(changes.map(\.originalTransactionId)), \(changes.map(\.accountId)), \(changes.map(\.boundByToken)),
                \(changes.map(\.movedAt))
            ) AS change(id, account_id, bound, moved_at)
            WHERE purchase_owners.original_transaction_id = change.id
            """)
    }

    /// Sets the owner of one locked purchase.
    func setOwner(
        _ originalTransactionId: String, to accountId: UUID, boundByToken: Bool, on connection: PostgresConnection
    ) async throws {
        try await setOwners(
            [OwnerChange(originalTransactionId: originalTransactionId, accountId: accountId, boundByToken: boundByToken)],
            on: connection)
    }

    /// The environment the purchase was first seen in, if the server knows it.
    func environment(of originalTransactionId: String, on connection: PostgresConnection) async throws
        -> AppStoreEnvironment?
    {
        guard let row = try await connection.query(
            "SELECT environment FROM purchase_owners WHERE original_transaction_id = \(originalTransactionId)"
        ).first else { return nil }
        return try TransactionRow.column("environment", try row.decode(String.self))
    }

    func owner(of originalTransactionId: String, on connection: PostgresConnection) async throws -> PurchaseOwner? {
        try await connection.query(
            """
            SELECT account_id, bound_by_token, environment FROM purchase_owners
            WHERE original_transaction_id = \(originalTransactionId)
            """
        ).first.map { row in
            let (accountId, bound, _) = try row.decode((UUID?, Bool, String).self)
            return PurchaseOwner(originalTransactionId: originalTransactionId, accountId: accountId, boundByToken: bound)
        }
    }
}
