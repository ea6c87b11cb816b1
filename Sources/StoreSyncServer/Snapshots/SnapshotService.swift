import Foundation
import Metrics
import NIOConcurrencyHelpers
import StoreSyncAPI
import StoreSyncCore

/// Builds signed entitlement snapshots, and keeps the encoded body of the last one per
/// account so an account whose data did not change is answered without a database read,
/// a derivation or a signature.
///
/// The cache answers only while the change feed is live: every version bump on any instance
/// arrives as a notification and evicts the account. A notification may overtake a slow read
/// of the older version, so an evicted account leaves a tombstone with the version it reached,
/// and an older snapshot is never stored over it. Entries are trusted for at most
/// ``maxAge`` whatever happens, which bounds the damage of anything missed.
final class SnapshotService: Sendable {
    /// What the cache keeps of a snapshot: its body, and what decides whether it still holds.
    struct CachedSnapshot: Sendable {
        let accountId: UUID
        let version: Int64
        let catalogRevision: String
        let generatedAt: Date
        let validUntil: Date
        let storedAt: Date
        let body: Data
    }

    private enum Entry {
        case snapshot(CachedSnapshot)
        /// The account changed to this version; no snapshot of an older one may be stored.
        case evicted(version: Int64, at: Date)

        var version: Int64 {
            switch self {
            case .snapshot(let cached): cached.version
            case .evicted(let version, _): version
            }
        }
    }

    private let signer: SnapshotSigner
    private let offlineGrace: TimeInterval
    private let feed: ChangeFeed?
    private let capacity: Int
    /// A cached snapshot is re-signed once this share of the offline grace has passed, so a
    /// device always receives most of the grace.
    private let refreshAfter: TimeInterval
    let maxAge: TimeInterval
    private let entries = NIOLockedValueBox<[UUID: Entry]>([:])
    /// `storesync_snapshot_cache_lookups_total{result}`: the hit ratio is what makes the cache
    /// worth its memory, so it is measured where it is decided.
    private let hits = Counter(label: "storesync_snapshot_cache_lookups_total", dimensions: [("result", "hit")])
    private let misses = Counter(label: "storesync_snapshot_cache_lookups_total", dimensions: [("result", "miss")])

    /// - Parameters:
    ///   - signer: The server's key.
    ///   - offlineGraceSeconds: How long devices may trust a snapshot offline.
    ///   - feed: The change feed; `nil` (or not live) turns the cache off.
    ///   - capacity: The most accounts kept (bodies are ~1–2 KB each); 0 turns the cache off.
    ///   - maxAge: The longest an entry is trusted.
    init(signer: SnapshotSigner, offlineGraceSeconds: Int, feed: ChangeFeed?, capacity: Int, maxAge: TimeInterval = 60) {
        self.signer = signer
        offlineGrace = TimeInterval(offlineGraceSeconds)
        refreshAfter = TimeInterval(offlineGraceSeconds) / 10
        self.feed = feed
        self.capacity = capacity
        self.maxAge = maxAge
    }

    var publicKey: String { signer.publicKey }

    /// A signed snapshot of the ledger as of `now`, with its JSON.
    ///
    /// `validUntil` is `now` plus the offline grace, but never later than the earliest expiry
    /// the snapshot vouches for.
    func snapshot(accountId: UUID, version: Int64, ledger: Ledger, catalog: Catalog, at now: Date) throws -> SignedSnapshot {
        let granted = entitlements(ledger: ledger, catalog: catalog, at: now)
        let earliestExpiry = granted.compactMap(\.expiresAt).filter { $0 > now }.min()
        let graceEnd = now.addingTimeInterval(offlineGrace)
        let unsigned = Snapshot(
            accountId: accountId, version: version, generatedAt: now,
            validUntil: min(graceEnd, earliestExpiry ?? graceEnd), entitlements: granted,
            transactions: ledger.records)
        return try signer.sign(unsigned)
    }

    /// The cached snapshot of this account for this catalog, if it may still be served.
    func cached(accountId: UUID, catalogRevision: String, at now: Date) -> CachedSnapshot? {
        guard capacity > 0, feed?.isLive == true else { return nil }
        guard case .snapshot(let cached)? = entries.withLockedValue({ $0[accountId] }),
            cached.catalogRevision == catalogRevision, now.timeIntervalSince(cached.storedAt) < maxAge,
            now.timeIntervalSince(cached.generatedAt) < refreshAfter, cached.validUntil > now
        else {
            misses.increment()
            return nil
        }
        hits.increment()
        return cached
    }

    /// Remembers a snapshot's body, unless the account has since moved past its version.
    ///
    /// The cache keeps its own copy of the body, allocated by the caller's thread: a snapshot
    /// signed on a database connection's thread (a batch of lookups) would otherwise stay in
    /// that thread's malloc arena for as long as it is cached, and with the pool's threads
    /// taking turns, arenas full of freed bodies would hold the server's memory up.
    func store(_ signed: SignedSnapshot, catalogRevision: String, at now: Date) {
        guard capacity > 0, feed?.isLive == true else { return }
        let snapshot = signed.snapshot
        let body = signed.body.withUnsafeBytes { Data($0) }
        let cached = CachedSnapshot(
            accountId: snapshot.accountId, version: snapshot.version, catalogRevision: catalogRevision,
            generatedAt: snapshot.generatedAt, validUntil: snapshot.validUntil, storedAt: now, body: body)
        entries.withLockedValue { entries in
            if let existing = entries[snapshot.accountId], existing.version > snapshot.version { return }
            if entries.count >= capacity, entries[snapshot.accountId] == nil { makeRoom(&entries, now: now) }
            entries[snapshot.accountId] = .snapshot(cached)
        }
    }

    /// Evicts an account whose version changed (to `newVersion`, when known).
    func invalidate(_ accountId: UUID, newVersion: Int64? = nil, at now: Date = Date()) {
        // Without a cache there is nothing to evict, and a tombstone would never be cleared.
        guard capacity > 0 else { return }
        entries.withLockedValue { entries in
            let version = max(newVersion ?? 0, entries[accountId]?.version ?? 0)
            entries[accountId] = .evicted(version: version, at: now)
        }
    }

    /// Evicts the accounts of a change this instance made, each with the version it changed
    /// to: a lookup that read an older version and stores its snapshot after this call must
    /// not put it back (the change feed's notice may come later or, for a change it already
    /// announced, have come earlier).
    func invalidate(_ newVersions: [UUID: Int64]) {
        for (account, version) in newVersions { invalidate(account, newVersion: version) }
    }

    /// Forgets everything: the change feed reconnected or dropped.
    func invalidateAll() {
        entries.withLockedValue { $0.removeAll(keepingCapacity: true) }
    }

    /// Drops tombstones and entries past their age first, then arbitrary entries down to 3/4.
    private func makeRoom(_ entries: inout [UUID: Entry], now: Date) {
        entries = entries.filter { _, entry in
            switch entry {
            case .snapshot(let cached): now.timeIntervalSince(cached.storedAt) < maxAge
            case .evicted(_, let at): now.timeIntervalSince(at) < maxAge
            }
        }
        while entries.count >= capacity * 3 / 4 { entries.remove(at: entries.startIndex) }
    }
}
