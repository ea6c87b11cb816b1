import Foundation
import StoreSyncAPI
import StoreSyncCore

/// One upload attempt of an outbox entry, and what it does to the outbox.
extension StoreSyncClient {
    enum UploadAttempt {
        /// The server holds it now; the entry is gone from the outbox.
        case acknowledged(Verdict)
        /// It stays in the outbox, rescheduled with backoff (or untouched after a session change).
        case retryLater(StoreSyncClientError)
        /// The StoreSync server refused it for good; the entry moved to the rejected uploads.
        case refused(StoreSyncClientError)
    }

    /// Puts a signed transaction in the outbox, unless that very JWS is already there.
    func enqueue(_ record: TransactionRecord, signedTransaction: String, in partition: CachePartition)
        throws(StoreSyncClientError) -> OutboxEntry
    {
        var entries = outbox(in: partition)
        let entry = OutboxEntry(record: record, signedTransaction: signedTransaction, at: now())
        if let existing = entries.first(where: { $0.id == entry.id }) { return existing }
        entries.append(entry)
        try save(entries, in: partition)
        return entry
    }

    func attemptUpload(_ entry: OutboxEntry, ticket: SessionTicket) async -> UploadAttempt {
        uploadsInFlight.insert(entry.id)
        defer { uploadsInFlight.remove(entry.id) }
        let result: Result<SyncAnswer, StoreSyncClientError>
        do {
            result = .success(try await api.upload(entry.signedTransaction, token: ticket.token))
        } catch {
            result = .failure(error)
        }
        // The answer belongs to a session that is gone: drop it. The entry stays queued in
        // that account's partition and goes up when the account signs in again.
        guard isCurrent(ticket) else { return .retryLater(.sessionChanged) }
        let partition = ticket.partition
        switch result {
        case .success(let answer):
            let response = answer.response
            do {
                try trust(answer, for: ticket)
            } catch {
                // An acknowledgement that does not verify may not be genuine: keep the entry.
                reschedule(entry, after: error, in: partition)
                return .retryLater(error)
            }
            removeFromOutbox(entry.id, in: partition)
            try? merge(response.snapshot.transactions, into: partition)
            try? keep(response.snapshot, bytes: answer.snapshotBytes, etag: answer.etag, in: partition)
            let verdict = response.verdicts.first { $0.transactionId == entry.transactionId }
                ?? Verdict(
                    originalTransactionId: entry.originalTransactionId, transactionId: entry.transactionId, verdict: .known,
                    productId: entry.productId)
            return .acknowledged(verdict)
        case .failure(.unauthorized):
            // The server ended this session, and so does the device. The entry stays in the
            // account's outbox, due as it was, and goes up once the account signs in again.
            endRefusedSession(ticket)
            return .retryLater(.unauthorized)
        case .failure(let error) where error.refusesUploadForGood:
            refuse(entry, because: error, in: partition)
            return .refused(error)
        case .failure(let error):
            reschedule(entry, after: error, in: partition)
            return .retryLater(error)
        }
    }

    private func reschedule(_ entry: OutboxEntry, after error: StoreSyncClientError, in partition: CachePartition) {
        var entries = outbox(in: partition)
        guard let index = entries.firstIndex(where: { $0.id == entry.id }) else { return }
        var retryAfter: TimeInterval?
        if case .rateLimited(let seconds) = error { retryAfter = seconds }
        entries[index].attempts += 1
        entries[index].nextAttemptAt = now().addingTimeInterval(
            configuration.retryPolicy.delay(afterFailures: entries[index].attempts, retryAfter: retryAfter))
        entries[index].lastFailure = error.description
        // Failing to save the schedule only means the entry is tried again sooner.
        try? save(entries, in: partition)
        // A flush sets the timer once it ends; outside one (a purchase being recorded), now.
        if runningFlush == nil { armRetryTimer() }
    }

    private func removeFromOutbox(_ id: String, in partition: CachePartition) {
        var entries = outbox(in: partition)
        guard entries.contains(where: { $0.id == id }) else { return }
        entries.removeAll { $0.id == id }
        // Failing here leaves an acknowledged entry queued: its next upload is answered `known`.
        try? save(entries, in: partition)
    }

    /// Drops an entry the server refused for good (``StoreSyncClientError/refusesUploadForGood``),
    /// recording why; a transaction that failed verification leaves the ledger too, while one
    /// owned by another account stays there for a restore the user may ask for.
    ///
    /// One rejected upload per transaction: StoreKit delivers a transaction it vouches for
    /// again at every launch until it is finished, and each refusal of it replaces the last.
    private func refuse(_ entry: OutboxEntry, because error: StoreSyncClientError, in partition: CachePartition) {
        removeFromOutbox(entry.id, in: partition)
        let status: Int
        let problemType: String
        let reason: String
        switch error {
        case .invalidInput(let problem):
            (status, problemType, reason) = (problem.status, problem.type, problem.detail ?? problem.title)
            var ledger = ledger(in: partition)
            if ledger[entry.transactionId]?.signedTransaction == entry.signedTransaction {
                ledger.remove(transactionId: entry.transactionId)
                try? save(ledger, in: partition)
            }
        case .ownedByOtherAccount(let type, let detail):
            (status, problemType, reason) = (409, type, detail ?? "the purchase belongs to another account")
        default:
            (status, problemType, reason) = (0, "about:blank", error.description)
        }
        var rejected = readList(.rejected, in: partition, as: Readable<RejectedUpload>.self)
        let refusal = RejectedUpload(
            transactionId: entry.transactionId, originalTransactionId: entry.originalTransactionId,
            productId: entry.productId, status: status, problemType: problemType, reason: reason, rejectedAt: now())
        if let earlier = rejected.firstIndex(where: { $0.transactionId == entry.transactionId }) {
            rejected[earlier] = refusal
        } else {
            rejected.append(refusal)
        }
        try? write(rejected, .rejected, in: partition)
    }

    /// Forgets outbox entries whose exact JWS a restore has just delivered.
    func removeDelivered(_ signedTransactions: Set<String>, in partition: CachePartition) {
        guard !signedTransactions.isEmpty else { return }
        var entries = outbox(in: partition)
        let before = entries.count
        entries.removeAll { signedTransactions.contains($0.signedTransaction) && !uploadsInFlight.contains($0.id) }
        if entries.count != before { try? save(entries, in: partition) }
    }
}
