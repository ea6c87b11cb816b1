import Foundation
import PostgresLibPQ
import StoreSyncCore

extension LookupService {
    /// One request's lookup that missed the snapshot cache: an account's snapshot, unless the
    /// request holds the current one (its `If-None-Match`).
    struct SnapshotRequest: Hashable, Sendable {
        let accountId: UUID
        let heldTags: String?
        /// A database that holds an older version of the account has no answer (a standby
        /// that has not replayed what the device has seen); 0 on the primary, which always answers.
        var minimumVersion: Int64 = 0
    }

    /// What the loader answers a request: the ETag, and the snapshot it signed for it (`nil`
    /// when the request holds the current one), under the catalog revision it was derived with.
    struct LoadedSnapshot: Sendable {
        let etag: String
        let signed: SignedSnapshot?
        let catalogRevision: String
    }

    /// Loads the snapshots of cache misses in batches, back to back on one connection's thread,
    /// where each batch is also derived and signed while PostgreSQL runs the next.
    ///
    /// Deriving and signing there rather than in each request's task keeps a batch of resumed
    /// requests from queueing for Swift Concurrency's few threads, each with work to do; one
    /// connection's thread signs snapshots faster than a lookup statement at a time serves them.
    static func makeLoader(
        pool: ConnectionPool, catalog: CatalogService, snapshots: SnapshotService, concurrentLoads: Int,
        now: @escaping @Sendable () -> Date
    ) -> CoalescingLoader<SnapshotRequest, Result<LoadedSnapshot, any Error>> {
        CoalescingLoader(
            maxConcurrentLoads: concurrentLoads, maxBatchSize: maxBatchSize, extraLoadAfter: extraLoadAfter,
            idleTimeout: idleTimeout
        ) { drain in
            try await pool.withConnection { connection in
                try await connection.withBlockingSession { session in
                    drain(
                        CoalescingLoader.Session(
                            start: { requests in
                                var accountIds: [UUID] = []
                                var seen: Set<UUID> = []
                                for request in requests where seen.insert(request.accountId).inserted {
                                    accountIds.append(request.accountId)
                                }
                                try session.send(LookupQuery.query(for: accountIds))
                            },
                            receive: {
                                let rows = try session.receive()
                                return { requests in
                                    try answers(
                                        to: requests, holdings: holdings(in: rows), catalog: catalog.currentState,
                                        snapshots: snapshots, at: now())
                                }
                            }))
                }
            }
        }
    }

    /// From this many rows up, a statement's rows are decoded in two halves, one per core
    /// (``CoreSpread/concurrently(_:_:)``), and each account's halves merged.
    ///
    /// Decoding takes ~0.5 ms per 1,000 rows, so below this size a split would save at most
    /// half a millisecond, less than it is worth taking a second core from other requests. A
    /// batch of accounts of a few purchases each stays far below it; an account with thousands
    /// of purchases, looked up while the other core idles, is what it is for.
    static let concurrentDecodingThreshold = 2_048

    /// What the rows of one lookup statement say each account holds.
    static func holdings(in rows: PostgresRows) throws -> [UUID: AccountHoldings] {
        guard rows.count >= concurrentDecodingThreshold else { return try LookupQuery.holdings(in: rows) }
        let halves = CoreSpread.slices(of: rows.count, into: 2)
        let (first, second) = try CoreSpread.concurrently(
            { try LookupQuery.holdings(in: rows, range: halves[0], withDigests: false) },
            { try LookupQuery.holdings(in: rows, range: halves[1], withDigests: false) })
        // An account's rows may fall in both halves; one statement read both at one version.
        return first.merging(second) { $0.merging($1) }
    }

    /// Each request's answer from what one statement read: a 304 for a request that holds the
    /// current tag, else the snapshot, signed once per account. An account that does not
    /// exist, or exists only at a version older than the request's minimum, has no answer; a
    /// snapshot that cannot be signed fails only its requests.
    static func answers(
        to requests: [SnapshotRequest], holdings: [UUID: AccountHoldings], catalog: CatalogService.CatalogState,
        snapshots: SnapshotService, at now: Date
    ) -> [SnapshotRequest: Result<LoadedSnapshot, any Error>] {
        var signed: [UUID: Result<SignedSnapshot, any Error>] = [:]
        var answers: [SnapshotRequest: Result<LoadedSnapshot, any Error>] = [:]
        for request in requests {
            guard let account = holdings[request.accountId], account.version >= request.minimumVersion else { continue }
            let etag = etag(version: account.version, catalogRevision: catalog.revision)
            if ifNoneMatch(request.heldTags, names: etag) {
                answers[request] = .success(LoadedSnapshot(etag: etag, signed: nil, catalogRevision: catalog.revision))
                continue
            }
            let snapshot =
                signed[request.accountId]
                ?? Result {
                    try snapshots.snapshot(
                        accountId: request.accountId, version: account.version, ledger: account.ledger,
                        catalog: catalog.catalog, at: now)
                }
            signed[request.accountId] = snapshot
            answers[request] = snapshot.map { LoadedSnapshot(etag: etag, signed: $0, catalogRevision: catalog.revision) }
        }
        return answers
    }
}
