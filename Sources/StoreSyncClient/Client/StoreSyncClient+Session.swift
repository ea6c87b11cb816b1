import Foundation
import StoreSyncAPI

extension StoreSyncClient {
    /// Creates an account and signs this device in to it.
    ///
    /// Purchases recorded before sign-in are then offered to the new account, and its
    /// snapshot is fetched; failures of those steps are retried later and do not fail the
    /// sign-up.
    ///
    /// - Parameters:
    ///   - email: The email.
    ///   - password: The password (sent over TLS, never stored on the device).
    ///   - deviceName: A name shown to the user in the account's device list.
    /// - Returns: The new session.
    /// - Throws: ``StoreSyncClientError/invalidInput(_:)`` (email taken, weak password),
    ///   transport and server errors, ``StoreSyncClientError/storage(_:)``.
    @discardableResult
    public func signUp(email: String, password: String, deviceName: String? = nil) async throws -> ClientSession {
        try await startSession(creatingAccount: true, email: email, password: password, deviceName: deviceName)
    }

    /// Signs this device in to an existing account, replacing any account signed in before.
    ///
    /// Purchases recorded before sign-in are offered to the account (a background restore,
    /// which never takes a purchase away from another account), its snapshot is fetched, and
    /// uploads it queued before an earlier sign-out are retried once due. None of these steps
    /// fails the sign-in: what fails is retried later.
    ///
    /// - Parameters:
    ///   - email: The email.
    ///   - password: The password.
    ///   - deviceName: A name for this device.
    /// - Returns: The session.
    /// - Throws: ``StoreSyncClientError/invalidInput(_:)`` for wrong credentials,
    ///   ``StoreSyncClientError/rateLimited(retryAfter:)``, transport and server errors.
    @discardableResult
    public func signIn(email: String, password: String, deviceName: String? = nil) async throws -> ClientSession {
        try await startSession(creatingAccount: false, email: email, password: password, deviceName: deviceName)
    }

    /// Signs this device out: locally at once, then at the server if it can be reached.
    ///
    /// Calls still in flight for the account drop their answers. The account's cache stays
    /// (partitioned, unreadable while another account is signed in) so purchases waiting in
    /// its outbox go up when it signs in again.
    ///
    /// - Throws: ``StoreSyncClientError/storage(_:)`` when the saved session could not be
    ///   removed; the client is signed out in memory regardless.
    public func signOut() async throws {
        guard let session = storedSession else { return }
        endSession()
        let removal = Result { () throws(StoreSyncClientError) in try saveSession(nil) }
        // Best effort: offline, the server's session simply stays until it is revoked there.
        try? await api.signOut(token: session.token)
        try removal.get()
    }

    private func startSession(creatingAccount: Bool, email: String, password: String, deviceName: String?)
        async throws(StoreSyncClientError) -> ClientSession
    {
        let startedUnder = generation
        let credentials = Credentials(email: email, password: password, deviceName: deviceName, deviceId: savedDeviceId)
        let response = creatingAccount ? try await api.signUp(credentials) : try await api.signIn(credentials)
        guard generation == startedUnder else { throw .sessionChanged }
        return try await begin(StoredSession(
            accountId: response.accountId, appAccountToken: response.appAccountToken, deviceId: response.deviceId,
            email: email, token: response.token))
    }

    /// Makes `session` the signed-in one (replacing any other, which is signed out at the server),
    /// then offers the anonymous purchases, fetches a snapshot and flushes due uploads; none of
    /// those steps fails the call.
    func begin(_ session: StoredSession) async throws(StoreSyncClientError) -> ClientSession {
        let previous = storedSession
        try saveSession(session)
        saveDeviceId(session.deviceId)
        endSession()
        storedSession = session
        let ticket = SessionTicket(session: session, generation: generation)

        if let previous, previous.token != session.token { try? await api.signOut(token: previous.token) }
        if isCurrent(ticket) { await offerAnonymousPurchases(ticket: ticket, force: true) }
        if isCurrent(ticket), verifiedSnapshot(in: ticket.partition) == nil { _ = try? await fetchSnapshot(ticket: ticket) }
        // Purchases this account queued before it last signed out go up now.
        if isCurrent(ticket) { await flushDueUploads() }
        return session.publicSession
    }

    /// Forgets the in-memory session state; the next ticket is of a new generation.
    func endSession() {
        storedSession = nil
        generation &+= 1
        snapshotMemo = nil
        claimRetryAt = nil
        claimFailures = 0
        retryTimer?.cancel()
        retryTimer = nil
    }
}
