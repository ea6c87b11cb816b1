import Foundation
import Metrics
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore

/// Account-linked lookups: the entitlement snapshot of an account (the hottest path: every
/// app launch asks) and the history of one purchase.
struct LookupService: Sendable {
    let pool: ConnectionPool
    let catalog: CatalogService
    let snapshots: SnapshotService
    let now: @Sendable () -> Date
    /// Lookups that miss the snapshot cache, coalesced into batch statements under load and
    /// answered with their snapshots signed (see ``makeLoader(pool:catalog:snapshots:concurrentLoads:now:)``).
    private let loader: CoalescingLoader<SnapshotRequest, Result<LoadedSnapshot, any Error>>
    /// The hot standby that answers lookups first, when one is configured.
    private let standby: StandbyReads?
    /// `storesync_entitlement_lookups_total{source}`: lookups answered from the cache, the
    /// standby and the primary.
    private let served = Source.counters()

    private let accounts = AccountRepository()
    private let transactions = TransactionRepository()
    private let ownership = OwnershipRepository()
    private let events: EventRepository

    /// - Parameters:
    ///   - concurrentLoads: Lookup statements in flight at once (on each server); concurrent
    ///     cache misses beyond them wait and share the next statement.
    ///   - standby: A hot standby's pool, its monitor and how far behind it may answer.
    init(
        pool: ConnectionPool, catalog: CatalogService, snapshots: SnapshotService, events: EventRepository,
        concurrentLoads: Int, standby: (pool: ConnectionPool, monitor: StandbyMonitor, maxLag: Duration)? = nil,
        now: @escaping @Sendable () -> Date
    ) {
        self.pool = pool
        self.events = events
        self.catalog = catalog
        self.snapshots = snapshots
        self.now = now
        self.loader = Self.makeLoader(
            pool: pool, catalog: catalog, snapshots: snapshots, concurrentLoads: concurrentLoads, now: now)
        self.standby = standby.map { standby in
            StandbyReads(
                monitor: standby.monitor, maxLag: standby.maxLag,
                loader: Self.makeLoader(
                    pool: standby.pool, catalog: catalog, snapshots: snapshots, concurrentLoads: concurrentLoads, now: now))
        }
    }

    /// Lookup statements in flight at once at most for a pool of `poolSize` connections: a
    /// quarter of the pool, at least one; the rest stays free for sign-ins, restores and
    /// notifications. A second one starts only beside a slow one (``extraLoadAfter``).
    static func concurrentLoads(poolSize: Int) -> Int {
        max(1, poolSize / 4)
    }

    /// How long a lookup statement runs before another may start beside it. Quick statements
    /// run one at a time so that misses batch, which costs PostgreSQL and the server less per
    /// lookup than statements side by side. A slow one (an account with a huge ledger) holds the
    /// other lookups up for at most this long.
    static let extraLoadAfter = Duration.milliseconds(5)

    /// How long a connection that ran lookups waits for the next miss before it goes back to the
    /// pool. Under load the queue runs dry between bursts of requests, and each fresh start costs
    /// a task, a checkout and a hop to the connection's thread. An idle server still gives the
    /// connection back within a millisecond.
    static let idleTimeout = Duration.milliseconds(1)

    /// Accounts per lookup statement at most: enough to drain a burst, small enough that no
    /// account waits long for the others' rows.
    static let maxBatchSize = 64

    /// What a lookup answers: the snapshot, or only its ETag when the caller holds that
    /// version already. The ETag names the account version and the catalog revision: either
    /// changing changes what the account is entitled to.
    enum SnapshotResponse: Sendable {
        case snapshot(body: [UInt8], etag: String)
        /// The caller's `If-None-Match` names the current tag: a 304, for which no snapshot was
        /// built.
        case current(etag: String)

        var etag: String {
            switch self {
            case .snapshot(_, let etag), .current(let etag): etag
            }
        }
    }

    /// The account's snapshot; `nil` when the account does not exist. Served from the cache
    /// while the account version and the catalog are unchanged, else by the standby when it
    /// holds what the caller has seen, else by the primary; never older than the version the
    /// caller's `If-None-Match` names.
    ///
    /// - Parameters:
    ///   - accountId: The account.
    ///   - heldTags: The request's `If-None-Match`: when it names the current tag, the answer
    ///     is ``SnapshotResponse/current(etag:)``, and a lookup that reached the database
    ///     derives and signs nothing (most of its cost; a device that refreshes less often than
    ///     cached snapshots live asks exactly this).
    func snapshot(of accountId: UUID, unlessHeld heldTags: String? = nil) async throws -> SnapshotResponse? {
        let catalogState = catalog.currentState
        let now = now()
        let requestedAt = ContinuousClock.now
        let seen = Self.newestVersion(namedIn: heldTags)
        if let cached = snapshots.cached(
            accountId: accountId, catalogRevision: catalogState.revision, at: now, minimumVersion: seen)
        {
            served[.cache]?.increment()
            let etag = Self.etag(version: cached.version, catalogRevision: catalogState.revision)
            return Self.ifNoneMatch(heldTags, names: etag) ? .current(etag: etag) : .snapshot(body: cached.body, etag: etag)
        }
        if let standby,
            let answer = await standby.snapshot(for: SnapshotRequest(accountId: accountId, heldTags: heldTags, minimumVersion: seen))
        {
            served[.standby]?.increment()
            return response(answer.loaded, at: now, freshAsOf: answer.freshAsOf)
        }
        // One statement reads the version and the ledger from one snapshot of the database, so
        // the ETag always names the data it describes.
        guard let loaded = try await loader.value(for: SnapshotRequest(accountId: accountId, heldTags: heldTags))?.get()
        else { return nil }
        served[.primary]?.increment()
        return response(loaded, at: now, freshAsOf: requestedAt)
    }

    /// The answer to what the database gave: 304 when the caller holds the current snapshot,
    /// else the signed one, which the cache keeps.
    private func response(_ loaded: LoadedSnapshot, at now: Date, freshAsOf: ContinuousClock.Instant) -> SnapshotResponse {
        guard let signed = loaded.signed else { return .current(etag: loaded.etag) }
        snapshots.store(signed, catalogRevision: loaded.catalogRevision, at: now, freshAsOf: freshAsOf)
        return .snapshot(body: signed.body, etag: loaded.etag)
    }

    /// The snapshot of the account a StoreKit 2 appAccountToken names.
    func snapshot(ofAppAccountToken token: UUID, unlessHeld heldTags: String? = nil) async throws -> SnapshotResponse? {
        guard let account = try await pool.withConnection({ try await accounts.find(appAccountToken: token, on: $0) })
        else { return nil }
        return try await snapshot(of: account.accountId, unlessHeld: heldTags)
    }

    static func etag(version: Int64, catalogRevision: String) -> String {
        "\"\(version)-\(catalogRevision)\""
    }

    /// The newest account version an `If-None-Match` value names (0 for none): the caller has
    /// seen that version, whatever catalog revision its tag carries, so no older answer may
    /// reach it.
    ///
    /// Read without allocating (the header comes with most device lookups): every `"` followed
    /// by digits and a `-` opens a tag of ours, weak or strong; anything else names no version.
    static func newestVersion(namedIn header: String?) -> Int64 {
        guard let header else { return 0 }
        var newest: Int64 = 0
        var bytes = header.utf8.makeIterator()
        var byte = bytes.next()
        while let current = byte {
            byte = bytes.next()
            guard current == UInt8(ascii: "\"") else { continue }
            var version: Int64 = 0
            var digits = 0
            while let digit = byte, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit), digits < 18 {
                version = version * 10 + Int64(digit - UInt8(ascii: "0"))
                digits += 1
                byte = bytes.next()
            }
            if digits > 0, byte == UInt8(ascii: "-") { newest = max(newest, version) }
        }
        return newest
    }

    /// Where a lookup's answer came from.
    enum Source: String, CaseIterable {
        case cache, standby, primary

        static func counters() -> [Source: Counter] {
            Dictionary(uniqueKeysWithValues: allCases.map { source in
                (source, Counter(label: "storesync_entitlement_lookups_total", dimensions: [("source", source.rawValue)]))
            })
        }
    }

    /// Whether an `If-None-Match` value names `etag`: it may list several tags, weak ones, or `*`.
    static func ifNoneMatch(_ header: String?, names etag: String) -> Bool {
        guard let header else { return false }
        return header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/\(etag)"
        }
    }

    /// Owner, every version in every account, and every event of one purchase; `nil` if the
    /// server has never seen it.
    func history(of originalTransactionId: String) async throws -> PurchaseHistory? {
        try await pool.withTransaction(isolation: .repeatableRead) { connection in
            let owner = try await ownership.owner(of: originalTransactionId, on: connection)
            let versions = try await transactions.history(of: originalTransactionId, on: connection)
            let trail = try await events.events(of: originalTransactionId, on: connection)
            guard owner != nil || !versions.isEmpty else { return nil }
            return PurchaseHistory(
                originalTransactionId: originalTransactionId, ownerAccountId: owner?.accountId,
                environment: versions.first?.record.environment,
                transactions: versions.map(\.record), events: trail)
        }
    }
}
