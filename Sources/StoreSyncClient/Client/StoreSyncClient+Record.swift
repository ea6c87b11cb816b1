import AppStorePayloads
import StoreSyncCore

extension StoreSyncClient {
    /// Records a StoreKit 2 purchase: stored locally first, then uploaded.
    ///
    /// Call it with `VerificationResult.jwsRepresentation` for every transaction StoreKit
    /// delivers — purchases, `Transaction.updates`, unfinished transactions at launch — and
    /// call `finish()` on the transaction only after it returns: by then the server has
    /// acknowledged it or it is durably in the outbox (or, signed out, in the anonymous
    /// partition), so the purchase cannot be lost. Re-recording the same transaction is
    /// harmless: the server answers `known`.
    ///
    /// - Parameter signedTransaction: The transaction's compact JWS.
    /// - Returns: Acknowledged (with the server's verdict), queued for retry, or stored until
    ///   sign-in.
    /// - Throws: ``StoreSyncClientError/malformedTransaction(_:)`` when the text is not a
    ///   StoreKit 2 transaction (nothing stored); ``StoreSyncClientError/storage(_:)`` when it
    ///   could not be stored (do not finish the transaction);
    ///   ``StoreSyncClientError/invalidInput(_:)`` when the server refused it as unverifiable
    ///   (`invalid-signed-data`) or for its App Store environment (`environment-refused`, final:
    ///   the transaction may be finished): removed again and listed in ``rejectedUploads``; any
    ///   other refusal leaves it queued; ``StoreSyncClientError/ownedByOtherAccount(problemType:detail:)``
    ///   when another account owns it (kept locally: a restore the user asks for may move it).
    public func record(signedTransaction: String) async throws -> RecordOutcome {
        let record: TransactionRecord
        do {
            record = try UnverifiedJWS.transaction(signedTransaction)
        } catch {
            throw StoreSyncClientError.malformedTransaction(error.description)
        }
        guard let ticket = currentTicket() else {
            try merge([record], into: .anonymous)
            return .storedUntilSignIn
        }
        try merge([record], into: ticket.partition)
        let entry = try enqueue(record, signedTransaction: signedTransaction, in: ticket.partition)
        // Another call is uploading this very JWS: it is durably queued either way.
        guard !uploadsInFlight.contains(entry.id) else { return .queued }
        // This purchase goes before any backlog, and the backlog is uploaded after the answer,
        // so a slow or failing backlog never keeps the user waiting for the one they just made.
        switch await attemptUpload(entry, ticket: ticket) {
        case .acknowledged(let verdict):
            Task { await self.flushDueUploads() }
            return .acknowledged(verdict)
        case .retryLater:
            return .queued
        case .refused(let error):
            throw error
        }
    }
}
