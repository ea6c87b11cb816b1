import Foundation
import Logging
import PostgresLibPQ
import ServiceLifecycle
import StoreSyncAPI
import StoreSyncCore
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

/// The snapshot cache of one instance, with its change feed live on a real database.
@Suite struct SnapshotEvictionTests {
    static let logger = Logger(label: "storesync.snapshot-eviction-tests")

    /// Runs `body` with a snapshot cache whose change feed is listening.
    static func withLiveCache(
        capacity: Int = 100, byteBudget: Int = 1 << 27,
        _ body: (SnapshotService) async throws -> Void
    ) async throws {
        try await withLiveCaches(capacity: capacity, byteBudget: byteBudget) { snapshots, _, _ in try await body(snapshots) }
    }

    /// Runs `body` with this instance's snapshot and session caches, their change feed listening,
    /// and a pool on the same database.
    static func withLiveCaches(
        capacity: Int = 100, byteBudget: Int = 1 << 27,
        _ body: (SnapshotService, SessionCache, ConnectionPool) async throws -> Void
    ) async throws {
        let database = try await TestDatabase.makeDatabase()
        let pool = ConnectionPool(configuration: database, size: 2, logger: logger)
        let feed = try ChangeFeed(database: database, logger: logger)
        let snapshots = SnapshotService(
            signer: try SnapshotSigner(rawKey: nil, logger: logger), offlineGraceSeconds: 3_600, feed: feed, capacity: capacity,
            byteBudget: byteBudget)
        let sessions = SessionCache(feed: feed)
        feed.attach(.init(snapshots: snapshots, sessions: sessions, catalog: CatalogService(pool: pool, logger: logger)))
        feed.markSchemaReady()
        let services = ServiceGroup(
            configuration: .init(services: [try #require(feed.listener), feed], gracefulShutdownSignals: [], logger: logger))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await services.run() }
            let deadline = ContinuousClock.now.advanced(by: .seconds(20))
            while !feed.isLive, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(feed.isLive)
            do {
                try await body(snapshots, sessions, pool)
            } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
            await services.triggerGracefulShutdown()
            try await group.waitForAll()
        }
        await pool.shutdown()
    }

    static func signed(_ snapshots: SnapshotService, account: UUID, version: Int64, at now: Date) throws -> SignedSnapshot {
        try snapshots.snapshot(accountId: account, version: version, ledger: Ledger(), catalog: Catalog([]), at: now)
    }

    /// `STORESYNC_SNAPSHOT_CACHE_ENTRIES=0` is how the cache is turned off: nothing is kept,
    /// whatever is stored or evicted.
    @Test func aCacheOfNoEntriesServesNothing() async throws {
        try await Self.withLiveCache(capacity: 0) { snapshots in
            let account = UUID()
            let now = Date()
            snapshots.invalidate([account: 1])
            snapshots.store(try Self.signed(snapshots, account: account, version: 1, at: now), catalogRevision: "r", at: now)
            #expect(snapshots.cached(accountId: account, catalogRevision: "r", at: now) == nil)
        }
    }

    /// A lookup read version 1; a restore on this instance committed version 2 and evicted the
    /// account before the change feed's notice came; the lookup then stores what it read. It
    /// must not be served: a device refreshing after its restore would get the older answer.
    @Test func aSnapshotReadBeforeALocalChangeIsNotCachedAfterTheChangesEviction() async throws {
        try await Self.withLiveCache { snapshots in
            let account = UUID()
            let now = Date()
            snapshots.store(try Self.signed(snapshots, account: account, version: 1, at: now), catalogRevision: "r", at: now)
            #expect(snapshots.cached(accountId: account, catalogRevision: "r", at: now)?.version == 1)

            snapshots.invalidate([account: 2])
            snapshots.store(try Self.signed(snapshots, account: account, version: 1, at: now), catalogRevision: "r", at: now)
            #expect(snapshots.cached(accountId: account, catalogRevision: "r", at: now) == nil)

            snapshots.store(try Self.signed(snapshots, account: account, version: 2, at: now), catalogRevision: "r", at: now)
            #expect(snapshots.cached(accountId: account, catalogRevision: "r", at: now)?.version == 2)
        }
    }
}
