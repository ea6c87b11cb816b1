import Foundation
import StoreSyncAPI
import StoreSyncCore

extension StoreSyncClient {
    /// Restores purchases: sends the device's ledger and legacy flags, applies the verdicts
    /// and caches the signed snapshot.
    ///
    /// The app's **Restore Purchases** button passes `userInitiated: true`; every other call
    /// (at launch, in the background) leaves the default, which never moves a purchase away from
    /// another account: two devices signed in to different accounts then cannot bounce one
    /// purchase between them.
    ///
    /// Transactions the server rejected are dropped from the device; those it has not seen a
    /// verdict for (recorded while the restore was in flight) and those still queued are
    /// kept. Legacy flags are resolved: confirmed by a verified purchase, or dropped.
    ///
    /// - Parameters:
    ///   - userInitiated: `true` only when the user tapped Restore Purchases: only then may the
    ///     server move a purchase from another account to this one (its transfer policy
    ///     permitting). `false` by default.
    ///   - dryRun: Ask what would happen — e.g. to warn "this moves your purchase from another
    ///     account" — without changing anything, on the server or on the device. The server
    ///     answers an unsigned preview (a signature only ever covers what it stored): it is
    ///     returned, never cached, and grants nothing.
    /// - Returns: The verdicts, the verified snapshot (for a dry run, the preview), and what
    ///   happened to the cache.
    /// - Throws: ``StoreSyncClientError/notSignedIn``; ``StoreSyncClientError/sessionChanged``
    ///   when the account signed out or switched meanwhile (nothing written); transport,
    ///   server and trust errors.
    public func restore(userInitiated: Bool = false, dryRun: Bool = false) async throws -> RestoreOutcome {
        try await restore(receipt: nil, userInitiated: userInitiated, dryRun: dryRun)
    }

    /// The restore of ``restore(userInitiated:dryRun:)`` and ``restore(receipt:userInitiated:dryRun:)``:
    /// offers anonymous purchases first, and uploads what is due after a real restore.
    func restore(receipt: String?, userInitiated: Bool, dryRun: Bool) async throws(StoreSyncClientError) -> RestoreOutcome {
        let ticket = try requireTicket()
        if !dryRun {
            await offerAnonymousPurchases(ticket: ticket, force: true)
            try ensureCurrent(ticket)
        }
        let outcome = try await performRestore(
            from: ticket.partition, ticket: ticket, receipt: receipt, userInitiated: userInitiated, dryRun: dryRun)
        if !dryRun { await flushDueUploads() }
        return outcome
    }

    /// One restore of a partition's ledger and flags into the ticket's account partition.
    ///
    /// - Parameters:
    ///   - source: The account's own partition, or the anonymous one when offering purchases
    ///     made before sign-in; accepted entries then move into the account.
    ///   - receipt: A base64 app receipt sent along (StoreKit 1 apps), or `nil`.
    func performRestore(
        from source: CachePartition, ticket: SessionTicket, receipt: String? = nil, userInitiated: Bool, dryRun: Bool
    ) async throws(StoreSyncClientError) -> RestoreOutcome {
        let destination = ticket.partition
        // A record whose evidence kind this version does not know came from the server's own
        // snapshot, which the server re-derives from what it holds: sending it back adds
        // nothing, and a server that no longer knows the kind (rolled back) would refuse the
        // whole restore over it.
        let sentRecords = ledger(in: source).records.filter { record in
            if case .unrecognized = record.evidence { return false }
            return true
        }
        let sentFlags = legacyFlags(in: source)
        let request = RestoreRequest(
            entries: sentRecords,
            legacyFlags: sentFlags.isEmpty ? nil : Dictionary(uniqueKeysWithValues: sentFlags.map { ($0, true) }),
            receipt: receipt, userInitiated: userInitiated, dryRun: dryRun)
        let answer = try await refusingSession(of: ticket) { () async throws(StoreSyncClientError) in
            try await api.restore(request, token: ticket.token)
        }
        let response = answer.response
        try ensureCurrent(ticket)
        guard !dryRun else {
            // An unsigned preview of a state never stored: shown, never kept, never trusted.
            guard response.snapshot.accountId == ticket.session.accountId else { throw .untrustedSnapshot }
            return RestoreOutcome(verdicts: response.verdicts, snapshot: response.snapshot, isDryRun: true)
        }
        try trust(answer, for: ticket)

        let matched = VerdictMatching(verdicts: response.verdicts, records: sentRecords, flags: sentFlags)
        // Re-read: calls that ran while the request was in flight may have added records.
        var sourceLedger = ledger(in: source)
        var moved: [TransactionRecord] = []
        var dropped: [String] = []
        var delivered: Set<String> = []
        for (record, verdict) in zip(sentRecords, matched.entryVerdicts) {
            // A newer version recorded meanwhile was not judged: leave it alone.
            let unchanged = sourceLedger[record.transactionId] == record
            switch verdict?.verdict {
            case .rejected?, .unverifiedClaim?:
                if unchanged { sourceLedger.remove(transactionId: record.transactionId) }
                dropped.append(record.transactionId)
            case .accepted?, .known?, .transferred?, .ownedByOtherAccount?:
                if verdict?.verdict != .ownedByOtherAccount, let jws = record.signedTransaction { delivered.insert(jws) }
                if source != destination, unchanged {
                    sourceLedger.remove(transactionId: record.transactionId)
                    moved.append(record)
                }
            case nil:
                continue
            }
        }
        if source == destination {
            sourceLedger.merge(response.snapshot.transactions)
            try save(sourceLedger, in: destination)
        } else {
            // The account gets the records before the anonymous partition lets them go: a
            // failure or a crash in between leaves them in both, and the next offer merges them
            // again, which changes nothing. The other order could lose the only copy.
            var destinationLedger = ledger(in: destination)
            destinationLedger.merge(moved)
            destinationLedger.merge(response.snapshot.transactions)
            try save(destinationLedger, in: destination)
            try save(sourceLedger, in: source)
        }
        removeDelivered(delivered, in: destination)
        try saveLegacyFlags(legacyFlags(in: source).filter { !sentFlags.contains($0) }, in: source)
        try keep(response.snapshot, bytes: answer.snapshotBytes, etag: answer.etag, in: destination)
        return RestoreOutcome(
            verdicts: response.verdicts, snapshot: response.snapshot, isDryRun: false,
            confirmedLegacyProducts: matched.confirmedFlags, droppedLegacyProducts: matched.droppedFlags,
            droppedTransactionIds: dropped)
    }

    /// Offers purchases recorded before sign-in (and flags imported then) to the signed-in
    /// account, as a background restore that never moves a purchase away from another
    /// account. Failures are retried later with backoff and never fail the caller.
    func offerAnonymousPurchases(ticket: SessionTicket, force: Bool) async {
        guard !ledger(in: .anonymous).isEmpty || !legacyFlags(in: .anonymous).isEmpty else { return }
        if !force, let retryAt = claimRetryAt, retryAt > now() { return }
        do {
            _ = try await performRestore(from: .anonymous, ticket: ticket, userInitiated: false, dryRun: false)
            claimFailures = 0
            claimRetryAt = nil
        } catch {
            claimFailures += 1
            claimRetryAt = now().addingTimeInterval(configuration.retryPolicy.delay(afterFailures: claimFailures))
            if runningFlush == nil { armRetryTimer() }
        }
    }
}
