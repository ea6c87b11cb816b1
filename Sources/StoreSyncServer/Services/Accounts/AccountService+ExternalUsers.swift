import Foundation
import Logging
import PostgresLibPQ
import StoreSyncAPI

/// Bring your own identity: accounts bound to the app backend's user ids, created, given device
/// sessions, looked up and deleted by that id through the admin routes. They have no password.
extension AccountService {
    /// `PUT /v1/admin/users/{externalUserId}`: the account bound to the id, created on first call.
    ///
    /// - Parameters:
    ///   - externalUserId: The app backend's user id.
    ///   - appAccountToken: The token the app already gives StoreKit for this user, which a new
    ///     account takes; `nil`: a new account gets a fresh one. Asked of an existing account,
    ///     it must be the account's own.
    /// - Returns: The account, and whether this call created it.
    /// - Throws: ``RequestError`` naming `externalUserId` for an id that is not 1–255 printable
    ///   characters, or `appAccountToken` for the nil UUID; ``AccountError/appAccountTokenConflict(_:)``
    ///   when the token is another account's or the account has another.
    func externalUser(_ externalUserId: String, appAccountToken: UUID? = nil) async throws -> (user: ExternalUser, created: Bool) {
        let id = try ExternalUserId.validated(externalUserId)
        // The nil UUID is what an app sends when it has none: binding it would hand one user
        // every purchase of every such app user.
        if appAccountToken?.uuidString == "00000000-0000-0000-0000-000000000000" {
            throw RequestError.invalid(field: "appAccountToken", detail: "the nil UUID is not a token")
        }
        if let existing = try await pool.withConnection({ try await accounts.find(externalUserId: id, on: $0) }) {
            return (try Self.externalUser(existing, id: id, asked: appAccountToken), false)
        }
        let account = AccountRecord(
            accountId: UUID(), email: nil, passwordHash: nil, appAccountToken: appAccountToken ?? UUID(), externalUserId: id)
        do {
            try await pool.withTransaction { try await accounts.insert(account, normalizedEmail: nil, on: $0) }
        } catch let error as PostgresError where error.code == .uniqueViolation {
            // Another call created it meanwhile (both answer the same account), or the token
            // asked for is another account's.
            guard let bound = try await pool.withConnection({ try await accounts.find(externalUserId: id, on: $0) }) else {
                throw AccountError.appAccountTokenConflict("this appAccountToken is another account's")
            }
            return (try Self.externalUser(bound, id: id, asked: appAccountToken), false)
        }
        logger.info("account created for an external user id", metadata: ["storesync.account_id": "\(account.accountId)"])
        return (try Self.externalUser(account, id: id, asked: appAccountToken), true)
    }

    /// `POST /v1/admin/users/{externalUserId}/sessions`: a device session the app backend hands
    /// its app, which then uses it exactly like one from a sign-in.
    ///
    /// - Throws: ``AccountError/notFound(_:)`` for an id no account is bound to, ``RequestError``.
    func mintSession(forExternalUser externalUserId: String, deviceName: String?) async throws -> SessionResponse {
        let id = try ExternalUserId.validated(externalUserId)
        let deviceName = try Self.validated(deviceName: deviceName)
        let account = try await boundAccount(id)
        let now = now()
        do {
            return try await pool.withTransaction { connection in
                try await startSession(of: account, deviceName: deviceName, now: now, on: connection)
            }
        } catch AccountError.accountDeleted {
            throw AccountError.notFound("no account is bound to this externalUserId")
        }
    }

    /// The account bound to an external user id (`GET` and `DELETE /v1/admin/users/{externalUserId}`).
    ///
    /// - Throws: ``AccountError/notFound(_:)``, ``RequestError``.
    func accountId(ofExternalUser externalUserId: String) async throws -> UUID {
        try await boundAccount(try ExternalUserId.validated(externalUserId)).accountId
    }

    private func boundAccount(_ id: String) async throws -> AccountRecord {
        guard let account = try await pool.withConnection({ try await accounts.find(externalUserId: id, on: $0) }) else {
            throw AccountError.notFound("no account is bound to this externalUserId")
        }
        return account
    }

    /// The answer for the account bound to `id`, whose token must be the one `asked` for, if any.
    private static func externalUser(_ account: AccountRecord, id: String, asked: UUID?) throws -> ExternalUser {
        if let asked, asked != account.appAccountToken {
            throw AccountError.appAccountTokenConflict("this user's account has another appAccountToken, which never changes")
        }
        return ExternalUser(accountId: account.accountId, appAccountToken: account.appAccountToken, externalUserId: id)
    }
}
