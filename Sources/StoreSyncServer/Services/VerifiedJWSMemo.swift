import Foundation
import NIOConcurrencyHelpers
import StoreSyncCore

/// Signed transactions this server already verified, found again by their exact text.
///
/// A device re-sends the same JWS at every restore and every launch (unfinished
/// transactions): comparing the text costs a small fraction of an ECDSA verification. Sound
/// because the verdict depends only on the bytes and on configuration fixed for the process's
/// life (trusted roots, bundle, environment; certificate validity is judged at the payload's
/// own signedDate, not at the time of checking).
///
/// Entries are filed under the text's last bytes (the end of its signature, which differs
/// between any two signatures) and its length, and a lookup answers only when the whole text
/// equals the remembered one: a repeated restore hashes none of its megabytes of JWS to find
/// them.
///
/// The memo keeps each text split (``StoreSyncCore/SignedText``), never the request's string:
/// the protected header (the certificate chain, most of every text, the same for all texts Apple
/// signs in a period) once for all entries that share it, and the rest of the text per entry.
/// Holding the request's strings would keep every restore's bodies' allocations alive,
/// scattered over the heap, long after the request ended.
final class VerifiedJWSMemo: Sendable {
    private let state = NIOLockedValueBox(State())
    private let capacity: Int

    /// - Parameter capacity: Texts remembered: a few large restores' worth. A text the account
    ///   holds is recognised by its stored digest without the memo (the memo only spares hashing
    ///   it), so the memo's real saving is an ECDSA verification of a text presented again by
    ///   an account that does not hold it; a larger memo buys little and stays resident for the
    ///   process's life.
    init(capacity: Int = 5_000) {
        self.capacity = capacity
    }

    /// The record of a JWS whose exact text verified before, carrying the memo's copy of that
    /// text (the same bytes, its header shared), so the request's string can be let go.
    func record(for jws: String) -> TransactionRecord? {
        record(for: SignedText(whole: jws))
    }

    /// The record of a text that verified before, however the text is held, carrying the memo's
    /// copy of it.
    func record(for text: SignedText) -> TransactionRecord? {
        guard let key = Key(text), let entry = state.withLockedValue({ $0.entries[key] }), entry.text == text else {
            return nil
        }
        var record = entry.record
        record.signedText = entry.text
        return record
    }

    /// Records remembered per taking of the lock: few enough that a lookup never waits long
    /// behind a large restore's texts, many enough that the verifying cores rarely meet there.
    static let rememberedPerLock = 64

    /// Remembers verified records, each under the JWS it carries, taking the lock once per
    /// ``rememberedPerLock`` of them.
    func remember(_ records: [TransactionRecord]) {
        for start in stride(from: 0, to: records.count, by: Self.rememberedPerLock) {
            remember(records[start..<min(start + Self.rememberedPerLock, records.count)])
        }
    }

    private func remember(_ records: ArraySlice<TransactionRecord>) {
        state.withLockedValue { state in
            for record in records {
                guard let text = record.signedText, let key = Key(text) else { continue }
                var stripped = record
                stripped.signedText = nil
                // Full: start over. Simpler than LRU, and forgetting costs only a re-verification.
                if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
                state.entries[key] = Entry(record: stripped, text: state.headers.sharing(text))
            }
        }
    }

    /// What the memo holds; guarded by the lock.
    private struct State {
        var entries: [Key: Entry] = [:]
        /// The headers entries share. A restore's texts come with their request's copy of the
        /// header, which the memo should not keep alive for each restore it remembers something
        /// of; texts with a header beyond these keep their own.
        var headers = SharedHeaders(limit: 16)
    }

    /// A remembered record (without its text) and the text it was verified from.
    private struct Entry {
        let record: TransactionRecord
        let text: SignedText
    }

    /// A text's length and its last 16 bytes.
    private struct Key: Hashable {
        let length: Int
        let tail: (UInt64, UInt64)

        init?(_ text: SignedText) {
            guard text.utf8Count >= 16 else { return nil }
            self.init(length: text.utf8Count, tail: text.lastSixteenBytes)
        }

        private init(length: Int, tail: (UInt64, UInt64)) {
            self.length = length
            self.tail = tail
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.length == rhs.length && lhs.tail == rhs.tail
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(length)
            hasher.combine(tail.0)
            hasher.combine(tail.1)
        }
    }
}
