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

    private let entries = NIOLockedValueBox<[Data: Entry]>([:])
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
        return entries.withLockedValue { entries in
            guard let entry = entries[tokenHash] else { return nil }
            guard now.timeIntervalSince(entry.storedAt) < maxAge else {
                entries[tokenHash] = nil
                return nil
            }
            return entry.device
        }
    }

    func store(_ device: DeviceIdentity, tokenHash: Data, now: Date) {
        guard feed?.isLive == true else { return }
        entries.withLockedValue { entries in
            if entries.count >= capacity, entries[tokenHash] == nil { entries.remove(at: entries.startIndex) }
            entries[tokenHash] = Entry(device: device, storedAt: now)
        }
    }

    func invalidate(tokenHash: Data) {
        entries.withLockedValue { $0[tokenHash] = nil }
    }

    func invalidateAll() {
        entries.withLockedValue { $0.removeAll(keepingCapacity: true) }
    }
}
