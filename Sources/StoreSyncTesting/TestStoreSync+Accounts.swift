public import Foundation
import PostgresLibPQ
public import StoreSyncAPI

/// The account lifecycle routes as tests call them, and what the database keeps of an account.
extension TestEndpoint {
    /// `DELETE /v1/accounts/current` with the password (or no body when `nil`).
    ///
    /// - Parameters:
    ///   - token: The device's bearer token.
    ///   - password: The account's password; `nil` sends no body.
    /// - Returns: The response (204 when deleted).
    public func deleteAccount(token: String, password: String?) async throws -> TestResponse {
        guard let password else { return try await send("DELETE", "/v1/accounts/current", token: token) }
        return try await send("DELETE", "/v1/accounts/current", token: token, json: AccountDeletionRequest(password: password))
    }

    /// `POST /v1/admin/users/{externalUserId}/sessions` after binding the id with
    /// `PUT /v1/admin/users/{externalUserId}`: a session the app's backend mints.
    ///
    /// - Parameters:
    ///   - externalUserId: The backend's user id (percent-encoded here).
    ///   - adminKey: The admin key.
    ///   - deviceName: The device's name.
    /// - Returns: The minted session.
    public func mintSession(forExternalUser externalUserId: String, adminKey: String, deviceName: String? = nil)
        async throws -> SessionResponse
    {
        let path = "/v1/admin/users/\(Self.pathComponent(externalUserId))"
        let bound = try await send("PUT", path, token: adminKey)
        guard bound.status == 200 || bound.status == 201 else { throw TestServerError.unexpectedStatus(bound.status, bound.problem) }
        let minted = try await send("POST", path + "/sessions", token: adminKey, json: DeviceSessionRequest(deviceName: deviceName))
        guard minted.status == 201 else { throw TestServerError.unexpectedStatus(minted.status, minted.problem) }
        return try minted.decode(SessionResponse.self)
    }

    /// `text` percent-encoded as one path segment.
    ///
    /// - Parameter text: Any text.
    /// - Returns: The text with everything but RFC 3986's unreserved characters escaped.
    public static func pathComponent(_ text: String) -> String {
        var unreserved = CharacterSet.alphanumerics
        unreserved.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}

extension TestStoreSync {
    /// Rows that name an account, by table (`events` included, which outlive the account).
    ///
    /// - Parameter accountId: The account.
    /// - Returns: Table name → rows naming the account.
    /// - Throws: Database errors.
    public func rows(of accountId: UUID) async throws -> [String: Int] {
        try await database.withConnection { connection in
            var counts: [String: Int] = [:]
            for table: StaticString in ["account_versions", "sessions", "transactions", "renewal_infos", "purchase_owners", "events"] {
                counts["\(table)"] = try await connection.query(
                    "SELECT count(*)::bigint FROM \(unescaped: table) WHERE account_id = \(accountId)"
                ).first!.decode(Int.self)
            }
            return counts
        }
    }

    /// Rows anywhere that reference an account without a version row (a deleted or missing
    /// one): what a deletion racing other writes must never leave.
    ///
    /// - Returns: The number of such rows over `sessions`, `transactions`, `renewal_infos` and
    ///   `purchase_owners`.
    /// - Throws: Database errors.
    public func orphanRows() async throws -> Int {
        try await database.withConnection { connection in
            var orphans = 0
            for table: StaticString in ["sessions", "transactions", "renewal_infos", "purchase_owners"] {
                orphans += try await connection.query(
                    """
                    SELECT count(*)::bigint FROM \(unescaped: table)
                    WHERE account_id IS NOT NULL
                      AND NOT EXISTS (SELECT 1 FROM account_versions WHERE account_versions.account_id = \(unescaped: table).account_id)
                    """
                ).first!.decode(Int.self)
            }
            return orphans
        }
    }

    /// What the `accounts` row of an account holds: its personal data, and whether it is deleted.
    ///
    /// - Parameter accountId: The account.
    /// - Returns: The email, password hash, app account token and external id (each `nil` once
    ///   erased) and whether `deleted_at` is set; `nil` when there is no row.
    /// - Throws: Database errors.
    public func accountRow(_ accountId: UUID) async throws
        -> (email: String?, passwordHash: String?, appAccountToken: UUID?, externalUserId: String?, deleted: Bool)?
    {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT email, password_hash, app_account_token, external_user_id, deleted_at IS NOT NULL
                FROM accounts WHERE account_id = \(accountId)
                """
            ).first.map { try $0.decode((String?, String?, UUID?, String?, Bool).self) }
        }
    }

    /// Every event of an account, oldest first: kind, purchase and the account it went to.
    ///
    /// - Parameter accountId: The account.
    /// - Returns: The events.
    /// - Throws: Database errors.
    public func accountEvents(_ accountId: UUID) async throws
        -> [(kind: String, originalTransactionId: String?, to: UUID?, reason: String)]
    {
        try await database.withConnection { connection in
            try await connection.query(
                """
                SELECT kind, original_transaction_id, to_account_id, reason FROM events
                WHERE account_id = \(accountId) ORDER BY event_id
                """
            ).map { try $0.decode((String, String?, UUID?, String).self) }
        }
    }
}
