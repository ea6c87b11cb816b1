public import Foundation
public import StoreSyncAPI

/// The signed-in account's lifecycle: deletion (App Store guideline 5.1.1(v)), its password, its
/// devices, and sessions the app's own backend mints (bring your own identity).
extension StoreSyncClient {
    /// Deletes the signed-in account at the server, then signs this device out and wipes its
    /// cache of the account (purchases, snapshot, outbox, flags).
    ///
    /// The server erases the account's email, password and sessions on every device, and
    /// releases its purchases: an account signing in next on this phone restores them. Nothing
    /// is changed locally unless the server confirmed the deletion.
    ///
    /// - Parameter password: The account's password; `nil` for an account the app's backend
    ///   manages (``adoptSession(_:)``), which has none.
    /// - Throws: ``StoreSyncClientError/invalidInput(_:)`` for a wrong password,
    ///   ``StoreSyncClientError/notSignedIn``, ``StoreSyncClientError/rateLimited(retryAfter:)``,
    ///   transport and server errors.
    public func deleteAccount(password: String?) async throws {
        let ticket = try requireTicket()
        try await refusingSession(of: ticket) { () async throws(StoreSyncClientError) in
            try await api.deleteAccount(password: password, token: ticket.token)
        }
        // The account is gone whatever happened here meanwhile: its partition goes in any case,
        // and the session only if it is still the signed-in one.
        if storedSession?.accountId == ticket.session.accountId {
            endSession()
            try saveSession(nil)
        }
        wipe(ticket.partition)
    }

    /// Changes the account's password; every other device of the account is signed out, this
    /// one stays signed in.
    ///
    /// - Parameters:
    ///   - current: The password now.
    ///   - new: The password from now on (at least 10 characters, at most 72 bytes).
    /// - Throws: ``StoreSyncClientError/invalidInput(_:)`` for a wrong current password or a
    ///   weak new one (the problem's `field` says which), ``StoreSyncClientError/notSignedIn``,
    ///   transport and server errors.
    public func changePassword(current: String, new: String) async throws {
        let ticket = try requireTicket()
        try await refusingSession(of: ticket) { () async throws(StoreSyncClientError) in
            try await api.changePassword(PasswordChangeRequest(password: current, newPassword: new), token: ticket.token)
        }
    }

    /// The account's signed-in devices, first signed in first; `current` marks this one.
    ///
    /// - Returns: The devices (never a token).
    /// - Throws: ``StoreSyncClientError/notSignedIn``, ``StoreSyncClientError/sessionChanged``,
    ///   transport and server errors.
    public func sessions() async throws -> [DeviceSession] {
        let ticket = try requireTicket()
        let list = try await refusingSession(of: ticket) { () async throws(StoreSyncClientError) in
            try await api.sessions(token: ticket.token)
        }
        try ensureCurrent(ticket)
        return list.sessions
    }

    /// Signs one of the account's devices out, e.g. a lost one; its token stops working at once.
    /// This device's own id signs this device out (``signOut()``).
    ///
    /// - Parameter deviceId: A device of ``sessions()``.
    /// - Throws: ``StoreSyncClientError/invalidInput(_:)`` (404) when the account has no such
    ///   device, ``StoreSyncClientError/notSignedIn``, transport and server errors.
    public func signOut(deviceId: UUID) async throws {
        let ticket = try requireTicket()
        guard deviceId != ticket.session.deviceId else { return try await signOut() }
        try await refusingSession(of: ticket) { () async throws(StoreSyncClientError) in
            try await api.signOut(deviceId: deviceId, token: ticket.token)
        }
    }

    /// Signs in with a session the app's own backend minted for its user
    /// (`POST /v1/admin/users/{externalUserId}/sessions`) and handed to the app: from then on the
    /// client works exactly as after ``signIn(email:password:deviceName:)``, and any account
    /// signed in before is signed out. An app that uses ``PurchaseCoordinator`` adopts through
    /// ``PurchaseCoordinator/adoptSession(_:)`` instead, which also imports what the user's
    /// Apple ID already owns, as its sign-in does.
    ///
    /// - Parameter minted: The session, as the admin route answered it.
    /// - Returns: The session (without an email).
    /// - Throws: ``StoreSyncClientError/storage(_:)`` when it cannot be saved.
    @discardableResult
    public func adoptSession(_ minted: SessionResponse) async throws -> ClientSession {
        try await begin(StoredSession(
            accountId: minted.accountId, appAccountToken: minted.appAccountToken, deviceId: minted.deviceId, email: nil,
            token: minted.token))
    }

    /// Removes every item of a partition and this installation's device id, best effort: an item
    /// that cannot be removed is reported in ``integrityIssues``.
    private func wipe(_ partition: CachePartition) {
        for item in CacheItem.allCases {
            let key = partition.key(item)
            do {
                try cache.set(nil, forKey: key)
            } catch {
                integrityIssues.note(CacheIntegrityIssue(key: key, problem: "not wiped: \(error)", detectedAt: now()))
            }
        }
        try? cache.set(nil, forKey: CacheKeys.deviceId)
    }
}
