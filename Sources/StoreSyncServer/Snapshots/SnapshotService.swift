import Foundation
import Metrics
import NIOConcurrencyHelpers
import StoreSyncAPI
import StoreSyncCore
import StoreSyncWire

/// Builds signed entitlement snapshots, and keeps the encoded body of the last one per
/// account so an account whose data did not change is answered without a database read,
/// a derivation or a signature.
///
/// The cache answers only while the change feed is live: every version bump on any instance
/// arrives as a notification (or, without `LISTEN`, is found by the feed's poll) and evicts the
/// account. A notification may overtake a slow read of the older version, so an evicted account
/// leaves a tombstone with the version it reached, and an older snapshot is never stored over
/// it. Entries are trusted for at most ``maxAge`` whatever happens, which bounds the damage of
/// anything missed.
///
/// Every answer comes with the moment its data is known complete up to (`freshAsOf`): when the
/// read started on the primary, or how far a standby had replayed. The cache remembers every
/// eviction since ``rememberedSince`` (it forgets them all when the feed reconnects, and some
/// when it makes room); an answer fresh only as of an earlier moment may predate an eviction it
/// no longer knows of, and is not stored. So a lagging standby's answer never replaces a newer
/// one, nor comes back after the newer one's eviction.
final class SnapshotService: Sendable {
    /// What the cache keeps of a snapshot: its body, and what decides whether it still holds.
    struct CachedSnapshot: Sendable {
        let accountId: UUID
        let version: Int64
        let catalogRevision: String
        let generatedAt: Date
        let validUntil: Date
        let storedAt: Date
        /// The data is complete up to this moment; a poll that finds the version unchanged moves it on.
        var freshAsOf: ContinuousClock.Instant
        /// The JSON, in a buffer of exactly its size (the byte budget counts what is held).
        let body: [UInt8]
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

        /// The bytes of body the entry holds.
        var bodyBytes: Int {
            switch self {
            case .snapshot(let cached): cached.body.count
            case .evicted: 0
            }
        }
    }

    private let signer: SnapshotSigner
    private let offlineGrace: TimeInterval
    private let feed: ChangeFeed?
    private let capacity: Int
    /// The most bytes of bodies kept: the entry count alone would let accounts with long
    /// histories (a snapshot of 10,000 purchases is 4 MB) hold gigabytes.
    private let byteBudget: Int
    /// A cached snapshot is re-signed once this share of the offline grace has passed, so a
    /// device always receives most of the grace.
    private let refreshAfter: TimeInterval
    let maxAge: TimeInterval
    private let state = NIOLockedValueBox(State())

    private struct State {
        private(set) var entries: [UUID: Entry] = [:]
        /// The bytes of the bodies in ``entries``.
        private(set) var bodyBytes = 0
        /// Every eviction since this moment is still known (as an entry's tombstone or version).
        var rememberedSince = ContinuousClock.now

        /// An account's entry; setting it keeps ``bodyBytes``.
        subscript(account: UUID) -> Entry? {
            get { entries[account] }
            set {
                bodyBytes += (newValue?.bodyBytes ?? 0) - (entries[account]?.bodyBytes ?? 0)
                entries[account] = newValue
            }
        }

        /// Keeps only the entries `isIncluded` accepts.
        mutating func keep(where isIncluded: (Entry) -> Bool) {
            entries = entries.filter { isIncluded($0.value) }
            bodyBytes = entries.values.reduce(0) { $0 + $1.bodyBytes }
        }

        /// Forgets some entry; answers whether it was a tombstone.
        mutating func forgetOne() -> Bool {
            let (account, entry) = entries[entries.startIndex]
            self[account] = nil
            if case .evicted = entry { return true }
            return false
        }

        mutating func removeAll() {
            entries.removeAll(keepingCapacity: true)
            bodyBytes = 0
        }
    }
    /// `storesync_snapshot_cache_lookups_total{result}`: the hit ratio is what makes the cache
    /// worth its memory, so it is measured where it is decided.
    private let hits = Counter(label: "storesync_snapshot_cache_lookups_total", dimensions: [("result", "hit")])
    private let misses = Counter(label: "storesync_snapshot_cache_lookups_total", dimensions: [("result", "miss")])

    /// - Parameters:
    ///   - signer: The server's key.
    ///   - offlineGraceSeconds: How long devices may trust a snapshot offline.
    ///   - feed: The change feed; `nil` (or not live) turns the cache off.
    ///   - capacity: The most accounts kept (bodies are ~1–2 KB each); 0 turns the cache off.
    ///   - byteBudget: The most bytes of bodies kept; a body larger than an eighth of it is
    ///     not cached, so that one long history cannot empty the cache of everyone else's.
    ///   - maxAge: The longest an entry is trusted.
    init(
        signer: SnapshotSigner, offlineGraceSeconds: Int, feed: ChangeFeed?, capacity: Int,
        byteBudget: Int, maxAge: TimeInterval = 60
    ) {
        self.signer = signer
        offlineGrace = TimeInterval(offlineGraceSeconds)
        refreshAfter = TimeInterval(offlineGraceSeconds) / 10
        self.feed = feed
        self.capacity = capacity
        self.byteBudget = byteBudget
        self.maxAge = maxAge
    }

    var publicKey: String { signer.publicKey }

    /// A signed snapshot of the ledger as of `now`, with its JSON.
    ///
    /// From ``concurrentWritingThreshold`` transactions up, the transactions are written on a
    /// second core while this one derives the entitlements (``CoreSpread/concurrently(_:_:)``).
    func snapshot(accountId: UUID, version: Int64, ledger: Ledger, catalog: Catalog, at now: Date) throws -> SignedSnapshot {
        guard ledger.records.count >= Self.concurrentWritingThreshold else {
            return try signer.sign(
                unsigned(accountId: accountId, version: version, ledger: ledger, catalog: catalog, at: now))
        }
        let (granted, transactions) = try CoreSpread.concurrently(
            { entitlements(ledger: ledger, catalog: catalog, at: now) },
            { try WrittenTransactions(ledger.records) })
        let snapshot = snapshot(accountId: accountId, version: version, granting: granted, ledger: ledger, at: now)
        return try signer.sign(snapshot, transactions: transactions)
    }

    /// A sync response's JSON: `verdicts`, and the signed snapshot of the ledger as of `now`.
    ///
    /// Written on one thread whatever the ledger's size: the milliseconds a second core would
    /// save are nothing beside a large restore's verifying and storing, and a second buffer of
    /// the transactions would come at its peak of memory.
    func syncResponse(
        verdicts: [Verdict], accountId: UUID, version: Int64, ledger: Ledger, catalog: Catalog, at now: Date
    ) throws -> [UInt8] {
        let snapshot = unsigned(accountId: accountId, version: version, ledger: ledger, catalog: catalog, at: now)
        return try signer.syncResponse(verdicts: verdicts, snapshot: snapshot)
    }

    /// From this many transactions up, a lookup's snapshot writes its transactions on a second
    /// core while the first derives its entitlements.
    ///
    /// Both take time in proportion to the ledger: for 10,000 purchases, ~3 ms of deriving and
    /// ~6 ms of writing. The overlap saves at most the deriving: ~0.3 ms at 1,000 purchases,
    /// less than it is worth taking a second core from other requests, which a busy server has
    /// none of to spare.
    static let concurrentWritingThreshold = 2_048

    /// The snapshot of the ledger as of `now`, before its signature, derived on this thread.
    private func unsigned(accountId: UUID, version: Int64, ledger: Ledger, catalog: Catalog, at now: Date) -> Snapshot {
        snapshot(
            accountId: accountId, version: version, granting: entitlements(ledger: ledger, catalog: catalog, at: now),
            ledger: ledger, at: now)
    }

    /// The snapshot of the ledger granting `granted` as of `now`. `validUntil` is `now` plus the
    /// offline grace, but never later than the earliest expiry the snapshot vouches for.
    private func snapshot(
        accountId: UUID, version: Int64, granting granted: [Entitlement], ledger: Ledger, at now: Date
    ) -> Snapshot {
        let earliestExpiry = granted.compactMap(\.expiresAt).filter { $0 > now }.min()
        let graceEnd = now.addingTimeInterval(offlineGrace)
        return Snapshot(
            accountId: accountId, version: version, generatedAt: now,
            validUntil: min(graceEnd, earliestExpiry ?? graceEnd), entitlements: granted,
            transactions: ledger.records)
    }

    /// What a dry run answers: `verdicts`, and what the account would look like, an unsigned
    /// snapshot of the ledger as of `now` (no `signature` member).
    ///
    /// A signature only ever covers stored state: a signed preview of something never stored
    /// would be proof, valid offline for days, of an entitlement nobody holds. Its `validUntil`
    /// is `now`, so no device may answer offline from it either.
    func previewResponse(
        verdicts: [Verdict], accountId: UUID, version: Int64, ledger: Ledger, catalog: Catalog, at now: Date
    ) throws -> [UInt8] {
        var preview = unsigned(accountId: accountId, version: version, ledger: ledger, catalog: catalog, at: now)
        preview.validUntil = now
        return try SyncResponse.body(verdicts: verdicts, snapshot: preview, signedBy: nil)
    }

    /// The cached snapshot of this account for this catalog, if it may still be served.
    ///
    /// - Parameters:
    ///   - minimumVersion: The newest account version the caller has seen (its `If-None-Match`):
    ///     an older cached snapshot is not served to it, whatever the feed says.
    func cached(accountId: UUID, catalogRevision: String, at now: Date, minimumVersion: Int64 = 0) -> CachedSnapshot? {
        guard capacity > 0, let feed, feed.isLive else { return nil }
        guard case .snapshot(let cached)? = state.withLockedValue({ $0.entries[accountId] }),
            cached.catalogRevision == catalogRevision, now.timeIntervalSince(cached.storedAt) < maxAge,
            now.timeIntervalSince(cached.generatedAt) < refreshAfter, cached.validUntil > now,
            cached.version >= minimumVersion, feed.trusts(freshAsOf: cached.freshAsOf)
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
    /// taking turns, arenas full of freed bodies would hold the server's memory up. The copy is
    /// exactly the body's size (a `ByteBuffer` would round it up to a power of two, and the
    /// cache would hold up to twice its byte budget).
    ///
    /// - Parameters:
    ///   - freshAsOf: The moment the snapshot's data is complete up to: when its read started on
    ///     the primary, or how far the standby it came from had replayed. An answer older than
    ///     the evictions the cache still remembers is not stored.
    func store(_ signed: SignedSnapshot, catalogRevision: String, at now: Date, freshAsOf: ContinuousClock.Instant = .now) {
        guard capacity > 0, feed?.isLive == true, signed.body.count <= byteBudget / 8 else { return }
        let body = [UInt8](unsafeUninitializedCapacity: signed.body.count) { copy, count in
            count = copy.initialize(fromContentsOf: signed.body)
        }
        let snapshot = signed.snapshot
        let cached = CachedSnapshot(
            accountId: snapshot.accountId, version: snapshot.version, catalogRevision: catalogRevision,
            generatedAt: snapshot.generatedAt, validUntil: snapshot.validUntil, storedAt: now, freshAsOf: freshAsOf,
            body: body)
        state.withLockedValue { state in
            guard freshAsOf >= state.rememberedSince else { return }
            let existing = state[snapshot.accountId]
            if let existing, existing.version > snapshot.version { return }
            let bytesAfter = state.bodyBytes - (existing?.bodyBytes ?? 0) + body.count
            if (state.entries.count >= capacity && existing == nil) || bytesAfter > byteBudget {
                state[snapshot.accountId] = nil
                makeRoom(&state, now: now, for: body.count)
            }
            state[snapshot.accountId] = .snapshot(cached)
        }
    }

    /// Evicts an account whose version changed (to `newVersion`, when known).
    func invalidate(_ accountId: UUID, newVersion: Int64? = nil, at now: Date = Date()) {
        // Without a cache there is nothing to evict, and a tombstone would never be cleared.
        guard capacity > 0 else { return }
        state.withLockedValue { state in
            let version = max(newVersion ?? 0, state[accountId]?.version ?? 0)
            state[accountId] = .evicted(version: version, at: now)
        }
    }

    /// Evicts the accounts of a change this instance made, each with the version it changed
    /// to: a lookup that read an older version and stores its snapshot after this call must
    /// not put it back (the change feed's notice may come later or, for a change it already
    /// announced, have come earlier).
    func invalidate(_ newVersions: [UUID: Int64]) {
        for (account, version) in newVersions { invalidate(account, newVersion: version) }
    }

    /// The version of every cached snapshot: what a poll checks against the database.
    func cachedVersions() -> [UUID: Int64] {
        state.withLockedValue { state in
            state.entries.reduce(into: [:]) { versions, entry in
                if case .snapshot(let cached) = entry.value { versions[entry.key] = cached.version }
            }
        }
    }

    /// Applies a poll: `current` holds the database's version of each account in `checked`,
    /// read after `checkedAt`; an account missing from it is gone.
    ///
    /// A snapshot still at its version is fresh as of `checkedAt`; one behind is evicted.
    func confirm(_ checked: [UUID: Int64], current: [UUID: Int64], checkedAt: ContinuousClock.Instant) {
        for (account, version) in checked {
            guard let latest = current[account] else {
                invalidate(account)
                continue
            }
            if latest > version { invalidate(account, newVersion: latest) }
        }
        state.withLockedValue { state in
            for (account, version) in checked where current[account] == version {
                guard case .snapshot(var cached)? = state[account], cached.version == version else { continue }
                cached.freshAsOf = max(cached.freshAsOf, checkedAt)
                state[account] = .snapshot(cached)
            }
        }
    }

    /// Forgets everything: the change feed reconnected or dropped. Answers read before now are
    /// no longer stored, since changes made meanwhile may have gone unannounced.
    func invalidateAll() {
        state.withLockedValue { state in
            state.removeAll()
            state.rememberedSince = .now
        }
    }

    /// Drops tombstones and entries past their age first, then arbitrary entries down to 3/4 of
    /// the capacity and, with `incoming` bytes about to be stored, of the byte budget;
    /// forgetting a tombstone forgets its eviction, so older answers are refused from now. That
    /// holds for one past its age too: a standby may lag longer than ``maxAge``
    /// (`DATABASE_READ_MAX_LAG_MS` allows an hour), and its answer from before the eviction
    /// must not come back.
    private func makeRoom(_ state: inout State, now: Date, for incoming: Int) {
        var forgotEviction = false
        state.keep { entry in
            switch entry {
            case .snapshot(let cached):
                return now.timeIntervalSince(cached.storedAt) < maxAge
            case .evicted(_, let at):
                let isRecent = now.timeIntervalSince(at) < maxAge
                if !isRecent { forgotEviction = true }
                return isRecent
            }
        }
        while !state.entries.isEmpty,
            state.entries.count >= capacity * 3 / 4 || state.bodyBytes + incoming > byteBudget * 3 / 4
        {
            if state.forgetOne() { forgotEviction = true }
        }
        if forgotEviction { state.rememberedSince = .now }
    }
}
