import Foundation
import PostgresLibPQ

/// The SQL of deleting an account (App Store guideline 5.1.1(v)), each step run in the one
/// database transaction ``AccountService`` deletes in, after it locked the account's version row.
///
/// The account's purchases are released: each goes to an account that still holds a copy of it
/// (policy `share`), or to nobody, with its signed versions kept in `unclaimed_versions` so the
/// next account to present it gets every version the server had (a refund included). What
/// identifies a person is erased; the account's row stays, erased, for the audit trail.
struct AccountDeletionRepository: Sendable {
    /// Locks the owner rows of every purchase the account owns or holds, in id order (as
    /// restores lock them), so no restore, transfer or notification of one of them runs meanwhile.
    ///
    /// - Returns: The purchases.
    func lockPurchases(of accountId: UUID, on connection: PostgresConnection) async throws -> [String] {
        try await connection.query(
            """
            SELECT original_transaction_id FROM purchase_owners
            WHERE account_id = \(accountId)
               OR original_transaction_id IN (SELECT original_transaction_id FROM transactions WHERE account_id = \(accountId))
            ORDER BY original_transaction_id
            FOR UPDATE
            """
        ).map { try $0.decode(String.self) }
    }

    /// Hands each purchase the account owns to the account (in id order) that still holds a copy
    /// of it, or to nobody; never bound by a token any more, so under any policy the next
    /// account to present it gets it.
    ///
    /// - Returns: Each purchase the account owned and its next owner (`nil`: nobody).
    func releaseOwnedPurchases(of accountId: UUID, on connection: PostgresConnection) async throws
        -> [(originalTransactionId: String, nextOwner: UUID?)]
    {
        try await connection.query(
            """
            UPDATE purchase_owners
            SET account_id = next.holder, bound_by_token = false, claimed_at = now()
            FROM (
                SELECT owned.original_transaction_id, (
                    SELECT held.account_id FROM transactions AS held
                    WHERE held.original_transaction_id = owned.original_transaction_id AND held.account_id <> \(accountId)
                    ORDER BY held.account_id LIMIT 1
                ) AS holder
                FROM purchase_owners AS owned WHERE owned.account_id = \(accountId)
            ) AS next
            WHERE purchase_owners.original_transaction_id = next.original_transaction_id
            RETURNING purchase_owners.original_transaction_id, purchase_owners.account_id
            """
        ).map { row in
            let (id, next) = try row.decode((String, UUID?).self)
            return (id, next)
        }
    }

    /// Keeps the account's signed versions (transactions and renewal infos) of the purchases that
    /// nobody owns now, for the next account to present them, every one of them: versions Apple
    /// signed in the same millisecond are told apart by their payload (migration 0013). Versions
    /// without signed text (receipt entries) the next account brings itself.
    func keepSignedVersions(
        of accountId: UUID, forPurchases originalTransactionIds: [String], on connection: PostgresConnection
    ) async throws {
        guard !originalTransactionIds.isEmpty else { return }
        try await connection.execute(
            """
            INSERT INTO unclaimed_versions (
                original_transaction_id, kind, signed_date, signed_payload, jws_header_sha256, jws_payload, jws_signature)
            SELECT original_transaction_id, 'transaction', signed_date, signed_transaction,
                jws_header_sha256, jws_payload, jws_signature
            FROM transactions
            WHERE account_id = \(accountId) AND original_transaction_id = ANY(\(originalTransactionIds))
              AND (signed_transaction IS NOT NULL OR jws_payload IS NOT NULL)
            UNION ALL
            SELECT original_transaction_id, 'renewalInfo', signed_date, signed_renewal_info,
                jws_header_sha256, jws_payload, jws_signature
            FROM renewal_infos
            WHERE account_id = \(accountId) AND original_transaction_id = ANY(\(originalTransactionIds))
              AND (signed_renewal_info IS NOT NULL OR jws_payload IS NOT NULL)
            ON CONFLICT DO NOTHING
            """)
    }

    /// Of these purchases, those nobody owns (locked by ``lockPurchases(of:on:)``).
    func unowned(_ originalTransactionIds: [String], on connection: PostgresConnection) async throws -> [String] {
        guard !originalTransactionIds.isEmpty else { return [] }
        return try await connection.query(
            """
            SELECT original_transaction_id FROM purchase_owners
            WHERE original_transaction_id = ANY(\(originalTransactionIds)) AND account_id IS NULL
            """
        ).map { try $0.decode(String.self) }
    }

    /// Deletes the account's purchase rows, erases its row in place and deletes its version row
    /// (a writer that then tries to lock the account finds none, and every instance is told to
    /// drop its cached snapshot). Its sessions go first, by ``SessionRepository``; its events stay.
    func erase(_ accountId: UUID, at now: Date, on connection: PostgresConnection) async throws {
        for table: StaticString in ["transactions", "renewal_infos"] {
            try await connection.execute("DELETE FROM \(unescaped: table) WHERE account_id = \(accountId)")
        }
        try await connection.execute(
            """
            UPDATE accounts
            SET email = NULL, email_normalized = NULL, password_hash = NULL, app_account_token = NULL,
                external_user_id = NULL, deleted_at = \(now)
            WHERE account_id = \(accountId)
            """)
        try await connection.execute("DELETE FROM account_versions WHERE account_id = \(accountId)")
    }
}
