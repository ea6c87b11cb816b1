import Foundation
import NIOConcurrencyHelpers

/// Bearer tokens already resolved to their device, so a signed-in device's request needs no
/// database read to authenticate. Trusted only while the change feed is live (a sign-out on
/// any instance removes the entry) and for at most ``maxAge`` in any case.
final class SessionCache: Sendable {
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

    private let entries = NIOLockedValueBox<[Key: Entry]>([:])
    private let feed: ChangeFeed?
    private let capacity: Int
    /// Also bounds how long a missed notification could matter, and how stale `last_seen_at` gets.
    let maxAge: TimeInterval

    init(feed: ChangeFeed?, capacity: Int = 100_000, maxAge: TimeInterval = 60) {
        self.feed = feed
        self.capacity = capacity
        self.maxAge = maxAge
    }

    func device(tokenHash: Data, now: Date) -> DeviceIdentity? {
        guard feed?.isLive == true else { return nil }
        guard let key = Key(tokenHash) else { return nil }
        return entries.withLockedValue { entries in
            guard let entry = entries[key] else { return nil }
            guard now.timeIntervalSince(entry.storedAt) < maxAge else {
                entries[key] = nil
                return nil
            }
            return entry.device
        }
    }

    func store(_ device: DeviceIdentity, tokenHash: Data, now: Date) {
        guard feed?.isLive == true else { return }
        guard let key = Key(tokenHash) else { return }
        entries.withLockedValue { entries in
            if entries.count >= capacity, entries[key] == nil { entries.remove(at: entries.startIndex) }
            entries[key] = Entry(device: device, storedAt: now)
        }
    }

    /// The hash of every cached token: what a poll checks against the database.
    func cachedTokenHashes() -> [Data] {
        entries.withLockedValue { entries in
            entries.keys.map { key in withUnsafeBytes(of: key.words) { Data($0) } }
        }
    }

    func invalidate(tokenHash: Data) {
        guard let key = Key(tokenHash) else { return }
        entries.withLockedValue { $0[key] = nil }
    }

    func invalidateAll() {
        entries.withLockedValue { $0.removeAll(keepingCapacity: true) }
    }
}
