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
                                        to: requests, holdings: LookupQuery.holdings(in: rows, inHalves: true),
                                        catalog: catalog.currentState,
                                        snapshots: snapshots, at: now())
                                }
                            }))
                }
            }
        }
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
