import Crypto
import NIOConcurrencyHelpers

/// Chains already verified, keyed by the SHA-256 of the JWS header text that carried them
/// (equal text, equal certificates), bounded so a flood of distinct (valid) chains cannot grow
/// memory without limit.
///
/// Only chains that passed full verification are stored, so an entry is never a shortcut
/// for a chain that was not checked.
struct VerifiedChainCache: Sendable {
    private let storage: NIOLockedValueBox<Storage>

    private struct Storage {
        var entries: [SHA256Digest: VerifiedChain] = [:]
        /// Insertion order, oldest first, for eviction.
        var order: [SHA256Digest] = []
    }

    /// The most chains kept; Apple signs with a handful of leaves at a time.
    let capacity: Int

    /// Creates an empty cache.
    ///
    /// - Parameter capacity: The most chains kept (at least one).
    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
        self.storage = NIOLockedValueBox(Storage())
    }

    /// The verified chain with this fingerprint, if cached.
    subscript(fingerprint: SHA256Digest) -> VerifiedChain? {
        storage.withLockedValue { $0.entries[fingerprint] }
    }

    /// Remembers a verified chain, evicting the oldest when full.
    func insert(_ chain: VerifiedChain, fingerprint: SHA256Digest) {
        storage.withLockedValue { storage in
            if storage.entries.updateValue(chain, forKey: fingerprint) == nil {
                storage.order.append(fingerprint)
            }
            while storage.order.count > capacity {
                storage.entries[storage.order.removeFirst()] = nil
            }
        }
    }

    /// How many chains are cached.
    var count: Int { storage.withLockedValue { $0.entries.count } }
}
