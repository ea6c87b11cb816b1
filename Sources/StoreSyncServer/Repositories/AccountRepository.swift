import Foundation
import PostgresLibPQ

/// An account row as the server needs it.
struct AccountRecord: Sendable, Hashable {
    let accountId: UUID
    let email: String
    let passwordHash: String
    let appAccountToken: UUID
}

/// SQL over `accounts` and `account_versions`.
struct AccountRepository: Sendable {
    /// Inserts an account and its version row; a taken email or token raises 23505.
    func insert(_ account: AccountRecord, normalizedEmail: String, on connection: PostgresConnection) async throws {
        try await connection.execute(
            """
            WITH created AS (
                INSERT INTO accounts (account_id, email, email_normalized, password_hash, app_account_token)
                VALUES (\(account.accountId), \(account.email), \(normalizedEmail), \(account.passwordHash), \(account.appAccountToken))
                RETURNING account_id
            )
            INSERT INTO account_versions (account_id) SELECT account_id FROM created
            """)
    }

    func find(normalizedEmail: String, on connection: PostgresConnection) async throws -> AccountRecord? {
        try await connection.query(
            """
            SELECT account_id, email, password_hash, app_account_token FROM accounts
            WHERE email_normalized = \(normalizedEmail)
            """
        ).first.map(Self.account)
    }

    func find(appAccountToken: UUID, on connection: PostgresConnection) async throws -> AccountRecord? {
        try await connection.query(
            """
            SELECT account_id, email, password_hash, app_account_token FROM accounts
            WHERE app_account_token = \(appAccountToken)
            """
        ).first.map(Self.account)
    }

    func exists(_ accountId: UUID, on connection: PostgresConnection) async throws -> Bool {
        !(try await connection.query("SELECT 1 FROM accounts WHERE account_id = \(accountId)").isEmpty)
    }

    /// The accounts whose app account token is one of `tokens`, keyed by token.
    func accounts(byAppAccountTokens tokens: [UUID], on connection: PostgresConnection) async throws -> [UUID: UUID] {
        guard !tokens.isEmpty else { return [:] }
        let rows = try await connection.query(
            """
            SELECT app_account_token, account_id FROM accounts
            WHERE app_account_token = ANY(\(tokens.map(\.uuidString))::uuid[])
            """)
        var result: [UUID: UUID] = [:]
        for row in rows {
            let (token, account) = try row.decode((UUID, UUID).self)
            result[token] = account
        }
        return result
    }

    /// Locks the account's version row until the database transaction ends and returns the
    /// version: every writer of one account serialises here.
    func lockVersion(_ accountId: UUID, on connection: PostgresConnection) async throws -> Int64? {
        try await connection.query(
            "SELECT version FROM account_versions WHERE account_id = \(accountId) FOR UPDATE"
        ).first.map { try $0.decode(Int64.self) }
    }

    /// Locks several accounts' version rows, in id order so concurrent lockers cannot deadlock
    /// on each other's order.
    func lockVersions(_ accountIds: [UUID], on connection: PostgresConnection) async throws {
        guard !accountIds.isEmpty else { return }
        try await connection.execute(
            """
            SELECT 1 FROM account_versions WHERE account_id = ANY(\(accountIds))
            ORDER BY account_id FOR UPDATE
            """)
    }

    /// Bumps the versions of several accounts in one statement, locking them in id order first
    /// (as ``lockVersions(_:on:)`` does) so concurrent bumpers cannot deadlock. A new version is
    /// the ETag of the account's next snapshot.
    ///
    /// - Returns: Each account's new version.
    /// - Throws: ``StoreSyncError/accountMissing(_:)`` for an account without a version row.
    func bumpVersions(_ accountIds: Set<UUID>, on connection: PostgresConnection) async throws -> [UUID: Int64] {
        guard !accountIds.isEmpty else { return [:] }
        let rows = try await connection.query(
            """
            UPDATE account_versions SET version = version + 1, updated_at = now()
            WHERE account_id IN (
                SELECT account_id FROM account_versions WHERE account_id = ANY(\(Array(accountIds)))
                ORDER BY account_id FOR UPDATE)
            RETURNING account_id, version
            """)
        var versions: [UUID: Int64] = [:]
        for row in rows {
            let (accountId, version) = try row.decode((UUID, Int64).self)
            versions[accountId] = version
        }
        if let missing = accountIds.first(where: { versions[$0] == nil }) { throw StoreSyncError.accountMissing(missing) }
        return versions
    }

    private static func account(_ row: PostgresRow) throws -> AccountRecord {
        let (id, email, hash, token) = try row.decode((UUID, String, String, UUID).self)
        return AccountRecord(accountId: id, email: email, passwordHash: hash, appAccountToken: token)
    }
}
