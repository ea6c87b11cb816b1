/// A session the server no longer accepts: signed out from another device's device list,
/// revoked by a password change on another device, unused past the server's idle limit, or
/// its account deleted. The server says so with a 401 to the session's token, and only then;
/// the device learns it at its next request.
extension StoreSyncClient {
    /// Ends the ticket's session on this device after the server refused its token, as
    /// ``signOut()`` would, without telling the server (the token is dead already).
    ///
    /// The account's cache stays, and every purchase queued in its outbox is made due: the
    /// account's next sign-in, which proves the server reachable, uploads them at once rather
    /// than at the end of a backoff; while another account is signed in they wait, as after a
    /// sign-out. Calls still in flight under the ticket drop their answers and throw
    /// ``StoreSyncClientError/unauthorized``.
    func endRefusedSession(_ ticket: SessionTicket) {
        guard isCurrent(ticket) else { return }
        endSession()
        refusedGeneration = ticket.generation
        var entries = outbox(in: ticket.partition)
        if entries.contains(where: { !$0.isDue(at: now()) }) {
            let dueNow = now()
            for index in entries.indices { entries[index].nextAttemptAt = min(entries[index].nextAttemptAt, dueNow) }
            // Failing here only leaves them on their backoff schedule.
            try? save(entries, in: ticket.partition)
        }
        do {
            try saveSession(nil)
        } catch {
            // Restored at the next launch, the session is refused again at its first request.
            integrityIssues.note(
                CacheIntegrityIssue(key: CacheKeys.session, problem: "a session the server refused stays saved: \(error)", detectedAt: now()))
        }
    }

    /// Runs a request made with the ticket's token, ending the session when the server refuses
    /// the token.
    ///
    /// - Parameters:
    ///   - ticket: The session the request is made for.
    ///   - request: The request.
    /// - Returns: What the request returns.
    /// - Throws: What the request throws.
    func refusingSession<Result>(
        of ticket: SessionTicket, _ request: () async throws(StoreSyncClientError) -> Result
    ) async throws(StoreSyncClientError) -> Result {
        do {
            return try await request()
        } catch {
            if error == .unauthorized { endRefusedSession(ticket) }
            throw error
        }
    }
}
