import Foundation
import PostgresLibPQ

/// A live account row as the server needs it: signed in with an email and a password, or bound
/// to the app backend's user id (no password).
struct AccountRecord: Sendable, Hashable {
    let accountId: UUID
    let email: String?
    let passwordHash: String?
    let appAccountToken: UUID
    let externalUserId: String?

    init(accountId: UUID, email: String?, passwordHash: String?, appAccountToken: UUID, externalUserId: String? = nil) {
        self.accountId = accountId
        self.email = email
        self.passwordHash = passwordHash
        self.appAccountToken = appAccountToken
        self.externalUserId = externalUserId
    }
}

/// SQL over `accounts` and `account_versions`. A deleted account keeps an erased row (no email,
/// password, token or external id) and no version row, so no lookup here finds it.
struct AccountRepository: Sendable {
    private static let columns: StaticString = "account_id, email, password_hash, app_account_token, external_user_id"

    /// Inserts an account and its version row; a taken email, external id or token raises 23505.
    func insert(_ account: AccountRecord, normalizedEmail: String?, on connection: PostgresConnection) async throws {
        try await connection.execute(
            """
            WITH created AS (
                INSERT INTO accounts (account_id, email, email_normalized, password_hash, app_account_token, external_user_id)
                VALUES (
                    \(account.accountId), \(account.email), \(normalizedEmail), \(account.passwordHash),
                    \(account.appAccountToken), \(account.externalUserId))
                RETURNING account_id
            )
            INSERT INTO account_versions (account_id) SELECT account_id FROM created
            """)
    }

    func find(normalizedEmail: String, on connection: PostgresConnection) async throws -> AccountRecord? {
        try await connection.query(
            "SELECT \(unescaped: Self.columns) FROM accounts WHERE email_normalized = \(normalizedEmail)"
        ).first.map(Self.account)
    }

    func find(appAccountToken: UUID, on connection: PostgresConnection) async throws -> AccountRecord? {
        try await connection.query(
            "SELECT \(unescaped: Self.columns) FROM accounts WHERE app_account_token = \(appAccountToken)"
        ).first.map(Self.account)
    }

    func find(externalUserId: String, on connection: PostgresConnection) async throws -> AccountRecord? {
        try await connection.query(
            "SELECT \(unescaped: Self.columns) FROM accounts WHERE external_user_id = \(externalUserId)"
        ).first.map(Self.account)
    }

    /// A live account by id; `nil` when there is none or it was deleted.
    func find(_ accountId: UUID, on connection: PostgresConnection) async throws -> AccountRecord? {
        try await connection.query(
            "SELECT \(unescaped: Self.columns) FROM accounts WHERE account_id = \(accountId) AND deleted_at IS NULL"
        ).first.map(Self.account)
    }

    /// The password hash of a live account, share-locked until the database transaction ends,
    /// so a password change (which updates the row) cannot commit between this read and the
    /// transaction's end; `nil` when the account was deleted or has no password.
    func lockedPasswordHash(of accountId: UUID, on connection: PostgresConnection) async throws -> String? {
        try await connection.query(
            "SELECT password_hash FROM accounts WHERE account_id = \(accountId) AND deleted_at IS NULL FOR SHARE"
        ).first.flatMap { try $0.decode(String?.self) }
    }

    /// Replaces the password hash of an account that has one.
    func setPasswordHash(_ hash: String, of accountId: UUID, on connection: PostgresConnection) async throws {
        try await connection.execute(
            """
            UPDATE accounts SET password_hash = \(hash)
            WHERE account_id = \(accountId) AND password_hash IS NOT NULL AND deleted_at IS NULL
            """)
    }

    /// The accounts whose app account token is one of `tokens`, keyed by token, each kept from
    /// being deleted until the database transaction ends (a key-share lock on its version row,
    /// which a deletion waits for and which waits for a deletion; a writer of the account does
    /// not wait for it). So a purchase routed to a token's account is routed to a live one.
    func accounts(byAppAccountTokens tokens: [UUID], on connection: PostgresConnection) async throws -> [UUID: UUID] {
        guard !tokens.isEmpty else { return [:] }
        let rows = try await connection.query(
            """
            SELECT accounts.app_account_token, accounts.account_id
            FROM accounts JOIN account_versions AS live ON live.account_id = accounts.account_id
            WHERE accounts.app_account_token = ANY(\(tokens.map(\.uuidString))::uuid[])
            FOR KEY SHARE OF live
            """)
        var result: [UUID: UUID] = [:]
        for row in rows {
            let (token, account) = try row.decode((UUID, UUID).self)
            result[token] = account
        }
        return result
    }

    /// Locks the account's version row until the database transaction ends and returns the
    /// version; `nil` when there is no such (live) account. Every writer of one account
    /// serialises here. The lock leaves the row's key alone, so rows referencing the account can
    /// still be written by others meanwhile; only a deletion (``lockForDeletion(_:on:)``) stops them.
    func lockVersion(_ accountId: UUID, on connection: PostgresConnection) async throws -> Int64? {
        try await connection.query(
            "SELECT version FROM account_versions WHERE account_id = \(accountId) FOR NO KEY UPDATE"
        ).first.map { try $0.decode(Int64.self) }
    }

    /// Locks the account's version row against everything until the database transaction ends:
    /// its writers, and every statement that would write a row referencing it. A deletion takes
    /// this lock before anything else.
    ///
    /// - Returns: The account's version; `nil` when there is no such (live) account.
    func lockForDeletion(_ accountId: UUID, on connection: PostgresConnection) async throws -> Int64? {
        try await connection.query(
            "SELECT version FROM account_versions WHERE account_id = \(accountId) FOR UPDATE"
        ).first.map { try $0.decode(Int64.self) }
    }

    /// Locks several accounts' version rows as ``lockVersion(_:on:)`` does, in id order so
    /// concurrent lockers cannot deadlock on each other's order.
    func lockVersions(_ accountIds: [UUID], on connection: PostgresConnection) async throws {
        guard !accountIds.isEmpty else { return }
        try await connection.execute(
            """
            SELECT 1 FROM account_versions WHERE account_id = ANY(\(accountIds))
            ORDER BY account_id FOR NO KEY UPDATE
            """)
    }

    private static func account(_ row: PostgresRow) throws -> AccountRecord {
        let (id, email, hash, token, externalUserId) = try row.decode((UUID, String?, String?, UUID, String?).self)
        return AccountRecord(
            accountId: id, email: email, passwordHash: hash, appAccountToken: token, externalUserId: externalUserId)
    }
}
