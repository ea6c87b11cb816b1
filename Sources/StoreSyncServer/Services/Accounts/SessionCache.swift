import Foundation
import NIOConcurrencyHelpers

/// Bearer tokens already resolved to their device, so a signed-in device's request needs no
/// database read to authenticate. Trusted only while the change feed is live (a sign-out on
/// any instance removes the entry) and for at most ``maxAge`` in any case.
///
/// A read of a session from the database may be overtaken by the sign-out that ends it: the
/// read finds the row, the sign-out commits and its notice evicts the token, and only then does
/// the read store what it found. So every eviction advances a ``Generation``, a reader takes the
/// generation before it reads, and ``store(_:tokenHash:readAt:now:)`` refuses what was read
/// before any eviction since: no cache entry outlives the session it names.
final class SessionCache: Sendable {
    /// How many evictions this cache has seen: taken before a database read, compared when
    /// its answer is stored.
    struct Generation: Sendable, Equatable {
        fileprivate let count: UInt64
    }

    private struct Entry {
        let device: DeviceIdentity
        let storedAt: Date
    }

    /// A token's SHA-256 as four words: hashed and compared without going through `Data`,
    /// which every authenticated request paid for.
    private struct Key: Hashable {
        let words: (UInt64, UInt64, UInt64, UInt64)

        /// `nil` unless `hash` is 32 bytes, the only length a token hash has.
        init?(_ hash: Data) {
            guard hash.count == 32 else { return nil }
            var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            withUnsafeMutableBytes(of: &words) { destination in _ = hash.copyBytes(to: destination) }
            self.words = words
        }

        static func == (left: Key, right: Key) -> Bool {
            left.words.0 == right.words.0 && left.words.1 == right.words.1 && left.words.2 == right.words.2
                && left.words.3 == right.words.3
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
        }
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var evictions: UInt64 = 0
    }

    private let state = NIOLockedValueBox(State())
    private let feed: ChangeFeed?
    private let capacity: Int
    /// Also bounds how long a missed notification could matter, and how stale `last_seen_at` gets.
    let maxAge: TimeInterval

    init(feed: ChangeFeed?, capacity: Int = 100_000, maxAge: TimeInterval = 60) {
        self.feed = feed
        self.capacity = capacity
        self.maxAge = maxAge
    }

    /// The cached device of a token, or `nil` when the database must be asked. On `nil`, the
    /// generation to pass to ``store(_:tokenHash:readAt:now:)`` with the database's answer.
    func device(tokenHash: Data, now: Date) -> (device: DeviceIdentity?, generation: Generation) {
        let live = feed?.isLive == true
        let key = Key(tokenHash)
        return state.withLockedValue { state in
            let generation = Generation(count: state.evictions)
            guard live, let key, let entry = state.entries[key] else { return (nil, generation) }
            guard now.timeIntervalSince(entry.storedAt) < maxAge else {
                state.entries[key] = nil
                return (nil, generation)
            }
            return (entry.device, generation)
        }
    }

    /// Caches what the database said of a token, unless a token was evicted since `generation`
    /// was taken (the session read may have ended meanwhile).
    func store(_ device: DeviceIdentity, tokenHash: Data, readAt generation: Generation, now: Date) {
        guard feed?.isLive == true else { return }
        guard let key = Key(tokenHash) else { return }
        state.withLockedValue { state in
            guard state.evictions == generation.count else { return }
            if state.entries.count >= capacity, state.entries[key] == nil { state.entries.remove(at: state.entries.startIndex) }
            state.entries[key] = Entry(device: device, storedAt: now)
        }
    }

    /// The hash of every cached token: what a poll checks against the database.
    func cachedTokenHashes() -> [Data] {
        state.withLockedValue { state in
            state.entries.keys.map { key in withUnsafeBytes(of: key.words) { Data($0) } }
        }
    }

    /// Evicts a token that stopped working (signed out, replaced, its account deleted).
    func invalidate(tokenHash: Data) {
        let key = Key(tokenHash)
        state.withLockedValue { state in
            state.evictions &+= 1
            if let key { state.entries[key] = nil }
        }
    }

    /// Evicts every token: the change feed reconnected or dropped.
    func invalidateAll() {
        state.withLockedValue { state in
            state.evictions &+= 1
            state.entries.removeAll(keepingCapacity: true)
        }
    }
}
