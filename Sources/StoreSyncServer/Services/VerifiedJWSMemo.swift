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
/// them. The record keeps the text anyway, so comparing it costs no memory.
final class VerifiedJWSMemo: Sendable {
    private let entries = NIOLockedValueBox<[Key: TransactionRecord]>([:])
    private let capacity: Int

    init(capacity: Int = 20_000) {
        self.capacity = capacity
    }

    /// The record of a JWS whose exact text verified before.
    func record(for jws: String) -> TransactionRecord? {
        guard let key = Key(jws), let record = entries.withLockedValue({ $0[key] }), record.signedTransaction == jws
        else { return nil }
        return record
    }

    /// Remembers a verified record under the JWS it carries.
    func remember(_ record: TransactionRecord) {
        guard let jws = record.signedTransaction, let key = Key(jws) else { return }
        entries.withLockedValue { entries in
            // Full: start over. Simpler than LRU, and forgetting costs only a re-verification.
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = record
        }
    }

    /// A text's length and its last 16 bytes.
    private struct Key: Hashable {
        let length: Int
        let tail: (UInt64, UInt64)

        init?(_ jws: String) {
            var jws = jws
            guard let key = jws.withUTF8({ bytes -> Key? in
                guard bytes.count >= 16, let base = bytes.baseAddress else { return nil }
                let end = UnsafeRawPointer(base + bytes.count)
                return Key(length: bytes.count, tail: ((end - 16).loadUnaligned(as: UInt64.self), (end - 8).loadUnaligned(as: UInt64.self)))
            }) else { return nil }
            self = key
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
