extension StoreSyncClient {
    /// Uploads every waiting purchase now, whatever its backoff says. Purchases recorded
    /// before sign-in are offered to the account too.
    ///
    /// After ``start(connectivity:)`` the outbox flushes itself (at launch, when the network
    /// comes back, on its backoff schedule); call this when the app knows better, e.g. when it
    /// comes to the foreground. A flush already running is joined rather than doubled: the
    /// call returns once that flush, and one more pass for this call, are done.
    ///
    /// Stops at the first upload that fails for any reason but the server refusing it for good
    /// (no network, server trouble, a captive portal answering); the rest keep their place.
    /// Never throws: failures stay in the outbox.
    ///
    /// - Returns: How many uploads went through, were refused, and still wait.
    @discardableResult
    public func flush() async -> FlushOutcome {
        await flushOutbox(force: true)
    }

    /// What every public call does after a successful request, and the retry timer when it
    /// fires: uploads the entries whose backoff has run out. Its failures never fail the
    /// caller's call. ``record(signedTransaction:)`` starts it without waiting for it: the
    /// user waits for the purchase just made, never for older ones.
    func flushDueUploads() async {
        _ = await flushOutbox(force: false)
    }

    /// Runs one flush at a time. A trigger that arrives while a flush runs asks for one more
    /// pass after it (forced if any such trigger was) and waits for it, so nothing a trigger
    /// wanted is skipped and no two passes ever upload side by side.
    ///
    /// A pass must never call this itself: it would wait for its own end.
    func flushOutbox(force: Bool) async -> FlushOutcome {
        if let running = runningFlush {
            flushRequestedDuringRun = (flushRequestedDuringRun ?? false) || force
            return await running.value
        }
        let run = Task { await self.runFlushPasses(force: force) }
        runningFlush = run
        return await run.value
    }

    private func runFlushPasses(force: Bool) async -> FlushOutcome {
        var force = force
        var total = FlushOutcome()
        while true {
            let pass = await flushPass(force: force)
            total.uploaded += pass.uploaded
            total.rejected += pass.rejected
            total.pending = pass.pending
            guard let again = flushRequestedDuringRun else { break }
            flushRequestedDuringRun = nil
            force = again
        }
        runningFlush = nil
        armRetryTimer()
        return total
    }

    private func flushPass(force: Bool) async -> FlushOutcome {
        guard let ticket = currentTicket() else { return FlushOutcome() }
        await offerAnonymousPurchases(ticket: ticket, force: force)
        let partition = ticket.partition
        var outcome = FlushOutcome()
        let candidates = outbox(in: partition).filter { force || $0.isDue(at: now()) }
        for candidate in candidates {
            guard isCurrent(ticket) else { return outcome }
            // Delivered by a restore, or taken by a purchase being recorded, while this loop awaited.
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
