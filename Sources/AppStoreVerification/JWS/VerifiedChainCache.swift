import NIOConcurrencyHelpers

/// Chains already verified, found by the exact text of the JWS header that carried them (equal
/// text, equal certificates), bounded so a flood of distinct (valid) chains cannot grow memory
/// without limit.
///
/// Only chains that passed full verification are stored, so an entry is never a shortcut for a
/// chain that was not checked. A header is compared with the cached ones byte for byte, newest
/// first: Apple signs with a handful of chains at a time, two chains' headers differ within
/// their first hundred bytes (the leaf's serial number), and the one that matches costs a
/// `memcmp` of its ~4.5 KB, a fraction of hashing it.
struct VerifiedChainCache: Sendable {
    /// The chains, oldest first.
    private let chains: NIOLockedValueBox<[VerifiedChain]>

    /// The most chains kept; Apple signs with a handful of leaves at a time.
    let capacity: Int

    /// Creates an empty cache.
    ///
    /// - Parameter capacity: The most chains kept (at least one).
    init(capacity: Int = 64) {
        self.capacity = max(1, capacity)
        self.chains = NIOLockedValueBox([])
    }

    /// The verified chain whose header text (with its dot) is exactly `headerText`, if cached.
    func chain(forHeader headerText: UnsafeBufferPointer<UInt8>) -> VerifiedChain? {
        chains.withLockedValue { chains in chains.last { $0.isCarried(by: headerText) } }
    }

    /// Remembers a verified chain, in place of one with the same header text (two restores that
    /// met a new chain at once both verify it), evicting the oldest when full.
    func insert(_ chain: VerifiedChain) {
        chains.withLockedValue { chains in
            chain.headerText.withUnsafeBufferPointer { text in chains.removeAll { $0.isCarried(by: text) } }
            chains.append(chain)
            if chains.count > capacity { chains.removeFirst(chains.count - capacity) }
        }
    }

    /// How many chains are cached.
    var count: Int { chains.withLockedValue { $0.count } }
}
