import AppStoreVerification
import Foundation
import StoreSyncCore

extension VerificationService {
    /// Verifies every signed entry of a restore (on every core, order kept). An entry whose
    /// fields disagree with its own signed transaction — a cache edited on the device — is
    /// rejected, and so is one whose signature does not verify.
    ///
    /// A text this process verified before is taken from its memo. Of the others, those
    /// `heldVersions` finds by digest (the texts the account already holds, stored after they
    /// verified) are taken from the rows they were stored in: on another instance or after a
    /// restart, a restore of what the account holds would otherwise check every signature
    /// again, or at least decode every payload (a thousand: ~5 ms on both cores). Only the rest
    /// are verified in full.
    ///
    /// One task per core, each taking a contiguous slice: a task per entry spent more on
    /// scheduling a thousand tasks than the entries' memo lookups cost.
    ///
    /// - Parameters:
    ///   - entries: The restore's entries.
    ///   - heldVersions: The versions the account holds among these entries' texts (the
    ///     transaction id each claims, and the digest), by digest, without their text; asked at
    ///     most once, and only for entries the memo does not know.
    /// - Returns: One item per entry, in order.
    /// - Throws: What `heldVersions` throws.
    func restoreItems(
        _ entries: [TransactionRecord],
        heldVersions: ([(transactionId: String, digest: Data)]) async throws -> [Data: TransactionRecord]
    ) async throws -> [SyncItem] {
        let looked = await inSlices(of: entries) { entry, index in lookUp(entry, at: index) }
        let unknown = looked.compactMap { lookUp -> (transactionId: String, digest: Data)? in
            guard case .unknown(let entry, _, _, let digest) = lookUp else { return nil }
            return (entry.transactionId, digest)
        }
        let held = unknown.isEmpty ? [:] : try await heldVersions(unknown)
        return await inSlices(of: looked) { lookUp, _ in
            switch lookUp {
            case .done(let item):
                return item
            case .unknown(let entry, let jws, let index, let digest):
                if let stored = held[digest], let record = rememberedHeld(stored, jws: jws) {
                    return Self.item(for: entry, at: index, verified: record)
                }
                return await item(for: entry, jws: jws, at: index)
            }
        }
    }

    /// The record of a text the account holds verified: its stored row with the text put back,
    /// remembered like a verified one. Only in the environment this server accepts: one
    /// configured for another since verifies the text again, and refuses it.
    ///
    /// The row is what verifying the text gave when it was stored (rows are never updated), and
    /// what the signature and the chain prove depends only on the text and the trusted roots,
    /// so checking again proves nothing new; a stored row is trusted the same way everywhere
    /// else (lookups serve it).
    private func rememberedHeld(_ stored: TransactionRecord, jws: String) -> TransactionRecord? {
        guard stored.environment == verifier.configuration.environment else { return nil }
        var record = stored
        record.signedTransaction = jws
        memo.remember(record)
        return record
    }

    /// An entry after the memo was asked.
    private enum MemoLookUp: Sendable {
        case done(SyncItem)
        /// The memo does not know it: the SHA-256 of its text, to look it up among the rows.
        case unknown(TransactionRecord, jws: String, index: Int, digest: Data)
    }

    private func lookUp(_ entry: TransactionRecord, at index: Int) -> MemoLookUp {
        guard let jws = entry.signedTransaction else { return .done(.unsigned(entry, entry: index)) }
        guard let known = memo.record(for: jws) else {
            return .unknown(entry, jws: jws, index: index, digest: SignedTransactionDigest.bytes(of: jws))
        }
        return .done(Self.item(for: entry, at: index, verified: known))
    }

    /// `transform` applied to every element on every core, in contiguous slices, order kept.
    private func inSlices<Element: Sendable, Result: Sendable>(
        of elements: [Element], _ transform: @escaping @Sendable (Element, Int) async -> Result
    ) async -> [Result] {
        let slices = Self.slices(of: elements.count, into: ProcessInfo.processInfo.activeProcessorCount)
        return await withTaskGroup(of: (Int, [Result]).self) { group in
            for (number, range) in slices.enumerated() {
                group.addTask {
                    var results: [Result] = []
                    results.reserveCapacity(range.count)
                    for index in range { results.append(await transform(elements[index], index)) }
                    return (number, results)
                }
            }
            var done = [[Result]](repeating: [], count: slices.count)
            for await (number, results) in group { done[number] = results }
            return done.flatMap { $0 }
        }
    }

    /// `count` indices in at most `parts` contiguous ranges of nearly equal length.
    static func slices(of count: Int, into parts: Int) -> [Range<Int>] {
        let parts = max(1, min(parts, count))
        guard count > 0 else { return [] }
        return (0..<parts).map { part in (part * count / parts)..<((part + 1) * count / parts) }
    }

    /// Verifies an entry neither the memo nor the account's rows know.
    private func item(for entry: TransactionRecord, jws: String, at index: Int) async -> SyncItem {
        do {
            return Self.item(for: entry, at: index, verified: try await verifiedAndRemembered(jws))
        } catch {
            return .rejected(entry, entry: index, reason: "the signed transaction was refused: \(error)")
        }
    }

    /// The item of an entry whose signed transaction is `record`.
    private static func item(for entry: TransactionRecord, at index: Int, verified record: TransactionRecord) -> SyncItem {
        guard record.transactionId == entry.transactionId,
            record.originalTransactionId == entry.originalTransactionId,
            record.productId == entry.productId
        else {
            return .rejected(entry, entry: index, reason: "the entry does not match its own signed transaction")
        }
        return .verified(record, entry: index)
    }
}
