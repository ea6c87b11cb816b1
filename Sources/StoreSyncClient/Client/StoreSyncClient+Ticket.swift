extension StoreSyncClient {
    /// The session an operation started under. After every `await` the operation checks that
    /// its ticket is still current, and drops what it received otherwise: actor reentrancy
    /// lets a sign-out or an account switch run while a request is in flight.
    struct SessionTicket: Sendable {
        let session: StoredSession
        let generation: UInt64

        var partition: CachePartition { .account(session.accountId) }
        var token: String { session.token }
    }

    func currentTicket() -> SessionTicket? {
        storedSession.map { SessionTicket(session: $0, generation: generation) }
    }

    func requireTicket() throws(StoreSyncClientError) -> SessionTicket {
        guard let ticket = currentTicket() else { throw .notSignedIn }
        return ticket
    }

    func isCurrent(_ ticket: SessionTicket) -> Bool {
        generation == ticket.generation
    }

    func ensureCurrent(_ ticket: SessionTicket) throws(StoreSyncClientError) {
        guard isCurrent(ticket) else { throw ticket.generation == refusedGeneration ? .unauthorized : .sessionChanged }
    }
}
