import Foundation
import NIOConcurrencyHelpers
import StoreSyncCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
/// The memo keeps its own compact copy of each text, never the request's string: the protected
/// header (the certificate chain, most of every text, the same for all texts Apple signs in a
/// period) once for all entries that share it, and the rest of the text per entry. Holding the
/// request's strings would keep every restore's bodies' allocations alive, scattered over the
/// heap, long after the request ended.
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

    /// The record of a JWS whose exact text verified before, carrying that text.
    func record(for jws: String) -> TransactionRecord? {
        var jws = jws
        guard let key = Key(jws), let entry = state.withLockedValue({ $0.entries[key] }),
            jws.withUTF8({ entry.text.equals($0) })
        else { return nil }
        var record = entry.record
        record.signedTransaction = jws
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
                guard var jws = record.signedTransaction, let key = Key(jws) else { continue }
                var stripped = record
                stripped.signedTransaction = nil
                // Full: start over. Simpler than LRU, and forgetting costs only a re-verification.
                if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
                let text = jws.withUTF8 { state.text(of: $0) }
                state.entries[key] = Entry(record: stripped, text: text)
            }
        }
    }

    /// What the memo holds; guarded by the lock.
    private struct State {
        /// How many distinct headers are shared between entries; texts with a header beyond
        /// these keep it in their own entry.
        static let sharedHeaderLimit = 16

        var entries: [Key: Entry] = [:]
        /// The headers entries share, each text `header.` up to and including the first dot.
        var headers: [[UInt8]] = []

        /// A compact copy of a text, its header shared with earlier entries when possible.
        mutating func text(of bytes: UnsafeBufferPointer<UInt8>) -> RememberedText {
            guard let base = bytes.baseAddress, let dot = memchr(base, Int32(UInt8(ascii: ".")), bytes.count) else {
                return RememberedText(header: [], rest: Array(bytes))
            }
            let headerLength = base.distance(to: dot.assumingMemoryBound(to: UInt8.self)) + 1
            let header = UnsafeBufferPointer(rebasing: bytes[..<headerLength])
            let rest = Array(bytes[headerLength...])
            if let shared = headers.first(where: { RememberedText.same($0, header) }) {
                return RememberedText(header: shared, rest: rest)
            }
            let copy = Array(header)
            if headers.count < Self.sharedHeaderLimit { headers.append(copy) }
            return RememberedText(header: copy, rest: rest)
        }
    }

    /// A remembered record (without its text) and the text it was verified from.
    private struct Entry {
        let record: TransactionRecord
        let text: RememberedText
    }

    /// A text as two byte arrays, `header` possibly shared by many entries.
    private struct RememberedText {
        let header: [UInt8]
        let rest: [UInt8]

        /// Whether `bytes` are exactly this text.
        func equals(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard bytes.count == header.count + rest.count else { return false }
            return Self.same(header, UnsafeBufferPointer(rebasing: bytes[..<header.count]))
                && Self.same(rest, UnsafeBufferPointer(rebasing: bytes[header.count...]))
        }

        static func same(_ stored: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard stored.count == bytes.count else { return false }
            guard let base = bytes.baseAddress, !stored.isEmpty else { return true }
            return stored.withUnsafeBufferPointer { memcmp($0.baseAddress!, base, stored.count) == 0 }
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
