import AppStorePayloads
import AppStoreVerification
import Foundation
import StoreSyncAPI
import StoreSyncCore

extension VerificationService {
    /// A restore entry as the memo of verified texts leaves it.
    enum RecalledEntry: Sendable {
        /// Settled without the database: an entry without signed data, or one whose text this
        /// process verified before.
        case settled(SyncItem)
        /// A text this process has not verified, split and hashed (``SignedTextSplitter``): its
        /// SHA-256 is how the account's rows may know it. `record` is `nil` for an entry that is
        /// only the text.
        case unrecalled(TransactionRecord?, text: SignedText, index: Int)
    }

    /// The first step of verifying a restore's entries: the memo settles the texts this process
    /// verified before, and every other text is split after its header and hashed for
    /// ``verify(_:against:)``. On every core, order kept.
    ///
    /// From here on no entry holds the request's strings: a text the memo knows is carried by
    /// the memo's copy, any other split, its header shared with the entries before it (a
    /// record's text comes split from the request's stream already and keeps its parts). Held
    /// whole, a restore of ten thousand texts kept ten thousand copies of the same certificate
    /// chain until its rows were stored, three quarters of its memory.
    ///
    /// - Parameter entries: The restore's entries, let go when this returns.
    /// - Returns: One recalled entry per entry, in order.
    func recall(_ entries: consuming [RestoreEntry]) async -> [RecalledEntry] {
        await inSlices(of: entries, sharing: SignedTextSplitter.init) { splitter, entry, index in
            let presentedText: SignedText
            var record: TransactionRecord?
            switch entry {
            case .record(let presented):
                guard let signed = presented.signedText else { return .settled(.unsigned(presented, entry: index)) }
                presentedText = signed
                record = presented
            case .signedTransaction(let jws):
                presentedText = SignedText(whole: jws)
            }
            if let known = memo.record(for: presentedText) {
                record?.signedText = known.signedText
                return .settled(item(for: record, at: index, verified: known))
            }
            let text = splitter.split(presentedText)
            record?.signedText = text
            return .unrecalled(record, text: text, index: index)
        }
    }

    /// The second step: of the texts the memo did not know, those the account holds verified
    /// (recognised by digest) are taken from the rows they were stored in, and only the rest are
    /// verified in full, each distinct text once however many entries repeat it (a request of a
    /// thousand copies of one forged text pays for one check). On every core, order kept.
    ///
    /// An entry whose fields disagree with its own signed transaction (a cache edited on the
    /// device) is rejected, and so is one whose signature does not verify. An entry that is only
    /// a signed transaction takes every field from it; when its text is refused, its verdict
    /// names the ids the text claims, if it can be read at all.
    ///
    /// - Parameters:
    ///   - entries: The restore's entries as ``recall(_:)`` left them.
    ///   - holdings: What the account holds, read with digests; `nil` when it holds nothing
    ///     known.
    /// - Returns: One item per entry, in order, and what was learned for ``remember(_:)``,
    ///   which the caller hands the memo while the items are stored.
    func verify(
        _ entries: [RecalledEntry], against holdings: AccountHoldings?
    ) async -> (items: [SyncItem], learned: Learned) {
        // An account that holds no verified text (every first restore) knows none of them.
        let knowsTexts = !(holdings?.verifiedTexts.isEmpty ?? true)
        let found = !knowsTexts ? entries : await inSlices(of: entries) { entry, _ -> RecalledEntry in
            guard case .unrecalled(let record, let text, let index) = entry,
                let stored = Self.heldVersion(ofText: SignedTransactionDigest.bytes(of: text), claimedBy: record, in: holdings),
                let held = heldRecord(stored, text: text)
            else { return entry }
            return .settled(item(for: record, at: index, verified: held))
        }
        // Distinct texts found by their digests, computed already: hashing and comparing the
        // texts themselves (kilobytes each) would cost a sizeable part of what verifying does.
        // Each entry keeps the number of its text, so its item finds its check without hashing
        // again. Here and for the items, the entries are read in place, by position: taken one
        // by one, each would be copied with its record, a dozen references retained and
        // released per entry (~0.3 ms of a thousand-entry restore's path).
        var textNumbers: [Data: Int] = [:]
        textNumbers.reserveCapacity(found.count)
        var texts: [SignedText] = []
        texts.reserveCapacity(found.count)
        var textNumberOfEntry = [Int](repeating: -1, count: found.count)
        for position in found.indices {
            guard case .unrecalled(_, let text, _) = found[position] else { continue }
            let digest = SignedTransactionDigest.bytes(of: text)
            if let number = textNumbers[digest] {
                textNumberOfEntry[position] = number
            } else {
                textNumberOfEntry[position] = texts.count
                textNumbers[digest] = texts.count
                texts.append(text)
            }
        }
        let outcomes = await inSlices(of: texts) { text, _ in await outcome(of: text) }
        countChecks(outcomes)
        let held = !knowsTexts ? [] : zip(entries, found).compactMap { entry, found -> TransactionRecord? in
            guard case .unrecalled = entry, case .settled(.verified(let record, _)) = found else { return nil }
            return record
        }
        var items: [SyncItem] = []
        items.reserveCapacity(found.count)
        for position in found.indices {
            switch found[position] {
            case .settled(let item):
                items.append(item)
            case .unrecalled(let record, _, let index):
                switch outcomes[textNumberOfEntry[position]] {
                case .success(let verified): items.append(item(for: record, at: index, verified: verified))
                case .failure(let refusal): items.append(.rejected(record ?? refusal.claimed, entry: index, reason: refusal.reason))
                }
            }
        }
        return (items, Learned(held: held, checked: outcomes))
    }

    /// What ``verify(_:against:)`` learned: the records of texts the account's rows knew, and
    /// the full checks of the others, sorted out only when the memo learns them.
    struct Learned: Sendable {
        fileprivate let held: [TransactionRecord]
        fileprivate let checked: [Result<TransactionRecord, Refusal>]
    }

    /// Remembers what ``verify(_:against:)`` learned: the records of texts the memo did not
    /// know that the account's rows knew or that verified in full.
    ///
    /// Nothing in a restore reads the memo after recall, so the memo can learn while the
    /// restore's transaction writes rather than hold the transaction back; picking the
    /// verified records out of the checks happens here for the same reason (for a thousand
    /// texts, ~0.5 ms of copying records that the transaction would wait for).
    func remember(_ learned: Learned) {
        memo.remember(self.learned(held: learned.held, checked: learned.checked))
    }

    /// The version the account stores with the text whose SHA-256 is `digest`: for a record, only
    /// when the text verified as the transaction the record claims to be; for a text sent alone,
    /// whichever it verified as.
    private static func heldVersion(
        ofText digest: Data, claimedBy record: TransactionRecord?, in holdings: AccountHoldings?
    ) -> TransactionRecord? {
        guard let record else { return holdings?.verifiedTexts[digest] }
        return holdings?.verifiedVersion(ofText: digest, claiming: record.transactionId)
    }

    /// The record of a text the account holds verified: its stored row with the text put back,
    /// remembered like a verified one. Only in an environment this server's verifier accepts: one
    /// configured for another since verifies the text again, and refuses it.
    ///
    /// The row is what verifying the text gave when it was stored (rows are never updated), and
    /// what the signature and the chain prove depends only on the text and the trusted roots,
    /// so checking again proves nothing new; a stored row is trusted the same way everywhere
    /// else (lookups serve it).
    private func heldRecord(_ stored: TransactionRecord, text: SignedText) -> TransactionRecord? {
        guard verifier.configuration.accepts(stored.environment) else { return nil }
        var record = stored
        record.signedText = text
        return record
    }

    /// The records of the texts a restore found held or verified, for the memo.
    ///
    /// - Parameters:
    ///   - held: The records of texts the account's rows knew.
    ///   - checked: The full checks of the remaining distinct texts.
    private func learned(held: [TransactionRecord], checked: [Result<TransactionRecord, Refusal>]) -> [TransactionRecord] {
        // A record accepted only under the development switch is not worth remembering.
        held + checked.compactMap { outcome in
            guard case .success(let record) = outcome, record.evidence == .jws else { return nil }
            return record
        }
    }

    /// Counts a restore's full checks once the slices are done: per text, the slices verifying
    /// on every core would wait for each other at the metric's lock.
    private func countChecks(_ checked: [Result<TransactionRecord, Refusal>]) {
        let verified = checked.count { if case .success = $0 { true } else { false } }
        countChecks(verified: verified, refused: checked.count - verified)
    }

    /// `transform` applied to every element on every core, in contiguous slices, order kept.
    private func inSlices<Element: Sendable, Result: Sendable>(
        of elements: [Element], _ transform: @escaping @Sendable (Element, Int) async -> Result
    ) async -> [Result] {
        await inSlices(of: elements, sharing: {}) { _, element, index in await transform(element, index) }
    }

    /// `transform` applied to every element on every core, in contiguous slices, order kept;
    /// each slice's elements share a state of their own, made by `makeState`.
    ///
    /// One task per core, each taking a contiguous slice: the work per entry (a memo lookup, a
    /// digest) is too small to be worth a task of its own. Each slice runs on a core of its own
    /// (``CoreSpread``): left to the kernel, the second often waits behind the first.
    private func inSlices<Element: Sendable, State, Result: Sendable>(
        of elements: [Element], sharing makeState: @escaping @Sendable () -> State,
        _ transform: @escaping @Sendable (inout State, Element, Int) async -> Result
    ) async -> [Result] {
        let slices = CoreSpread.slices(of: elements.count, into: ProcessInfo.processInfo.activeProcessorCount)
        return await withTaskGroup(of: (Int, [Result]).self) { group in
            for (number, range) in slices.enumerated() {
                group.addTask {
                    await CoreSpread.onOwnCore(slice: number, of: slices.count) {
                        var state = makeState()
                        var results: [Result] = []
                        results.reserveCapacity(range.count)
                        for index in range { results.append(await transform(&state, elements[index], index)) }
                        return (number, results)
                    }
                }
            }
            var done = [[Result]](repeating: [], count: slices.count)
            for await (number, results) in group { done[number] = results }
            // The first slice's results are kept as they are and the others appended: joined
            // into a new array, each result would be copied and its original released.
            guard !done.isEmpty else { return [] }
            var joined = done.removeFirst()
            joined.reserveCapacity(elements.count)
            for rest in done { joined += rest }
            return joined
        }
    }

    /// Why a signed text was refused, as an entry's verdict says it.
    struct Refusal: Error {
        let reason: String
        /// What the text claims to be, read without verifying it: the ids a verdict on an entry
        /// that is only the text can name; `nil` when it is not a readable signed transaction.
        let claimed: TransactionRecord?
    }

    /// Verifies a text neither the memo nor the account's rows know, as it is held: split, it
    /// is not joined again (~4.5 KB copied per text), and the record carries it split.
    private func outcome(of text: SignedText) async -> Result<TransactionRecord, Refusal> {
        do {
            return .success(try await verifier.verifyTransaction(text).record)
        } catch {
            let reason = "the signed transaction was refused: \(error)"
            var claimed = try? UnverifiedJWS.transaction(text.string)
            claimed?.signedText = text
            return .failure(Refusal(reason: reason, claimed: claimed))
        }
    }

    /// The item of an entry whose signed transaction is `record`: rejected when the entry is a
    /// record that contradicts it, or when its environment is not taken here.
    ///
    /// - Parameter entry: The entry's record; `nil` for an entry that is only the text.
    private func item(for entry: TransactionRecord?, at index: Int, verified record: TransactionRecord) -> SyncItem {
        guard let entry else { return admit(record, entry: index) }
        guard record.transactionId == entry.transactionId,
            record.originalTransactionId == entry.originalTransactionId,
            record.productId == entry.productId,
            record.productType == entry.productType
        else {
            return .rejected(entry, entry: index, reason: "the entry does not match its own signed transaction")
        }
        return admit(record, entry: index)
    }
}
