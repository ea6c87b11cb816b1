import Foundation
import PostgresLibPQ
import Logging
import StoreSyncAPI

/// What a signed-in device may do to its own account: delete it, change its password, list its
/// devices and sign one of them out.
extension AccountService {
    /// `DELETE /v1/accounts/current`: the password is checked again (an account bound to the app
    /// backend's user id has none), then the account is deleted (``delete(_:reason:)``).
    ///
    /// - Throws: ``AccountError/wrongPassword`` (nothing changed), ``RequestError`` when the
    ///   password is missing, ``AccountError/rateLimited(retryAfterSeconds:)``.
    func deleteAccount(of device: DeviceIdentity, password: String?, clientAddress: String?) async throws {
        let account = try await liveAccount(device.accountId)
        try await recheck(password, of: account, clientAddress: clientAddress)
        try await delete(account.accountId, reason: "deleted by its user (DELETE /v1/accounts/current)")
    }

    /// `PUT /v1/accounts/current/password`: the current password is checked again, the new one
    /// must pass the rules of sign-up, and every session but the one whose token asked
    /// (`tokenHash`) ends. A sign-in with the old password that was still checking it as the
    /// change committed is refused (``signIn(_:clientAddress:)``).
    ///
    /// - Throws: ``AccountError/wrongPassword``, ``AccountError/weakPassword(_:field:)`` naming
    ///   `newPassword`, ``AccountError/noPassword`` for an account without one (nothing changed).
    func changePassword(
        of device: DeviceIdentity, tokenHash: Data?, _ change: PasswordChangeRequest, clientAddress: String?
    ) async throws {
        let account = try await liveAccount(device.accountId)
        guard let email = account.email, account.passwordHash != nil else { throw AccountError.noPassword }
        let normalized = CredentialRules.normalize(email: email)
        if let problem = CredentialRules.problem(withPassword: change.newPassword, email: normalized) {
            throw AccountError.weakPassword(problem, field: "newPassword")
        }
        try await recheck(change.password, of: account, clientAddress: clientAddress)
        let hash = try await hasher.hash(change.newPassword)
        let ended = try await pool.withTransaction { connection in
            try await accounts.setPasswordHash(hash, of: account.accountId, on: connection)
            return try await sessions.deleteAll(of: account.accountId, exceptToken: tokenHash, on: connection)
        }
        ended.forEach(sessionCache.invalidate(tokenHash:))
        logger.info(
            "password changed; other sessions ended",
            metadata: ["storesync.account_id": "\(account.accountId)", "storesync.sessions_ended": "\(ended.count)"])
    }

    /// `GET /v1/sessions`: the account's devices still signed in, the asking one marked.
    func sessions(of device: DeviceIdentity) async throws -> SessionList {
        let idleSince = now().addingTimeInterval(-sessionIdle)
        let rows = try await pool.withConnection { connection in
            try await sessions.sessions(of: device.accountId, idleSince: idleSince, on: connection)
        }
        return SessionList(sessions: rows.map { row in
            DeviceSession(
                deviceId: row.deviceId, deviceName: row.deviceName, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt,
                current: row.deviceId == device.deviceId)
        })
    }

    /// `DELETE /v1/sessions/{deviceId}`: signs one of the account's devices out.
    ///
    /// - Throws: ``AccountError/notFound(_:)`` when the account has no such device (another
    ///   account's device included: nothing changed).
    func signOut(deviceId: UUID, of device: DeviceIdentity) async throws {
        let ended = try await pool.withConnection { connection in
            try await sessions.delete(accountId: device.accountId, deviceId: deviceId, on: connection)
        }
        guard let ended else { throw AccountError.notFound("this account has no signed-in device \(deviceId)") }
        sessionCache.invalidate(tokenHash: ended)
    }

    /// The account a device acts for, unless it was deleted meanwhile.
    private func liveAccount(_ accountId: UUID) async throws -> AccountRecord {
        guard let account = try await pool.withConnection({ try await accounts.find(accountId, on: $0) }) else {
            throw AccountError.accountDeleted
        }
        return account
    }

    /// Checks the account's password again before a deletion or a password change, throttled
    /// like a sign-in of its email. bcrypt runs whatever the password, so a right and a wrong
    /// one take the same time; an account without a password has nothing to check.
    private func recheck(_ password: String?, of account: AccountRecord, clientAddress: String?) async throws {
        guard let hash = account.passwordHash, let email = account.email else { return }
        guard let password else {
            throw RequestError.invalid(field: "password", detail: "the account's password is required")
        }
        let key = CredentialRules.normalize(email: email)
        try CredentialRules.checkSignInSizes(email: key, password: password)
        try hasher.ensureRoom()
        try await throttle.reserveSignIn(email: key, address: clientAddress, now: now())
        guard try await hasher.verify(password, against: hash) else { throw AccountError.wrongPassword }
        try await throttle.forgetFailures(email: key)
    }
}
