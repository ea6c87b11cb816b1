import Crypto
import Foundation
import NIOConcurrencyHelpers
import StoreSyncCore

/// Signed transactions this server already verified, by the SHA-256 of their exact text.
///
/// A device re-sends the same JWS at every restore and every launch (unfinished
/// transactions): hashing the text costs a few microseconds, an ECDSA verification a hundred
/// or more. Sound because the verdict depends only on the bytes and on configuration fixed for
/// the process's life (trusted roots, bundle, environment; certificate validity is judged at
/// the payload's own signedDate, not at the time of checking).
final class VerifiedJWSMemo: Sendable {
    private let entries = NIOLockedValueBox<[SHA256.Digest: TransactionRecord]>([:])
    private let capacity: Int

    init(capacity: Int = 20_000) {
        self.capacity = capacity
    }

    /// The memo's key for a JWS: the SHA-256 of its text, computed once per lookup.
    static func key(for jws: String) -> SHA256.Digest {
        SignedTransactionDigest.of(jws)
    }

    func record(for key: SHA256.Digest) -> TransactionRecord? {
        entries.withLockedValue { $0[key] }
    }

    func remember(_ record: TransactionRecord, for key: SHA256.Digest) {
        entries.withLockedValue { entries in
            // Full: start over. Simpler than LRU, and forgetting costs only a re-verification.
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = record
        }
    }
}
