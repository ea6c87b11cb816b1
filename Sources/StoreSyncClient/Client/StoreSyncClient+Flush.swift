extension StoreSyncClient {
    /// Uploads every waiting purchase now, whatever its backoff says: call it when
    /// connectivity returns or the app comes to the foreground. Purchases recorded before
    /// sign-in are offered to the account too.
    ///
    /// Stops at the first upload that fails for network or server reasons; the rest keep
    /// their place. Never throws: failures stay in the outbox.
    ///
    /// - Returns: How many uploads went through, were refused, and still wait.
    @discardableResult
    public func flush() async -> FlushOutcome {
        await flushOutbox(force: true)
    }

    /// What every public call does first: retries the uploads whose backoff has run out.
    /// Its failures never fail the caller's call.
    func flushDueUploads() async {
        _ = await flushOutbox(force: false)
    }

    func flushOutbox(force: Bool) async -> FlushOutcome {
        guard let ticket = currentTicket() else { return FlushOutcome() }
        await offerAnonymousPurchases(ticket: ticket, force: force)
        let partition = ticket.partition
        var outcome = FlushOutcome()
        let candidates = outbox(in: partition).filter { force || $0.isDue(at: now()) }
        for candidate in candidates {
            guard isCurrent(ticket) else { return outcome }
            // Delivered by a restore, or taken by another call, while this loop awaited.
            guard let entry = outbox(in: partition).first(where: { $0.id == candidate.id }),
                !uploadsInFlight.contains(entry.id)
            else { continue }
            switch await attemptUpload(entry, ticket: ticket) {
            case .acknowledged:
                outcome.uploaded += 1
            case .refused:
                outcome.rejected += 1
            case .retryLater:
                outcome.pending = isCurrent(ticket) ? outbox(in: partition).count : 0
                return outcome
            }
        }
        outcome.pending = isCurrent(ticket) ? outbox(in: partition).count : 0
        return outcome
    }
}
