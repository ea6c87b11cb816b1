import Foundation
import Logging
import PostgresLibPQ
@testable import StoreSyncServer
import Testing

/// What the snapshot cache keeps when answers come from a lagging standby or a poll stands in
/// for notifications: never an answer older than one it has seen or an eviction it remembers.
@Suite struct SnapshotFreshnessTests {
    static let logger = Logger(label: "storesync.snapshot-freshness-tests")

    static func signed(_ snapshots: SnapshotService, _ account: UUID, version: Int64) throws -> SignedSnapshot {
        try SnapshotEvictionTests.signed(snapshots, account: account, version: version, at: Date())
    }

    @Test(arguments: [
        (nil, 0), ("\"7-ab12cd34\"", 7), ("W/\"12-ab12cd34\"", 12), ("\"3-aa\", W/\"9-bb\" , \"5-cc\"", 9), ("*", 0),
        ("\"abc\"", 0), ("\"-5-x\"", 0), ("\"12\"", 0), ("\"99999999999999999999-x\"", 0), ("", 0), ("\"", 0),
    ] as [(String?, Int64)])
    func theNewestAccountVersionAnIfNoneMatchNames(header: String?, version: Int64) {
        #expect(LookupService.newestVersion(namedIn: header) == version)
    }

    @Test func aSnapshotOlderThanTheVersionTheDeviceHasSeenIsNotServedToIt() async throws {
        try await SnapshotEvictionTests.withLiveCache { snapshots in
            let account = UUID()
            snapshots.store(try Self.signed(snapshots, account, version: 1), catalogRevision: "r", at: Date())
            #expect(snapshots.cached(accountId: account, catalogRevision: "r", at: Date(), minimumVersion: 2) == nil)
            #expect(snapshots.cached(accountId: account, catalogRevision: "r", at: Date(), minimumVersion: 1)?.version == 1)
            #expect(snapshots.cached(accountId: account, catalogRevision: "r", at: Date())?.version == 1)
        }
    }

    /// A standby lagging behind the primary answers with an older version after the primary's
    /// answer was cached: it must not replace it.
    @Test func aStandbysOlderAnswerNeverReplacesTheNewerAnswerCached() async throws {
        try await SnapshotEvictionTests.withLiveCache { snapshots in
            let account = UUID()
            snapshots.store(try Self.signed(snapshots, account, version: 2), catalogRevision: "r", at: Date())
            snapshots.store(try Self.signed(snapshots, account, version: 1), catalogRevision: "r", at: Date(), freshAsOf: .now)
            #expect(snapshots.cached(accountId: account, catalogRevision: "r", at: Date())?.version == 2)
        }
    }

    /// The feed reconnected (or dropped): evictions announced while nobody listened are
    /// unknown, so an answer whose data predates that moment may be stale and is not kept.
    @Test func anAnswerFreshOnlyAsOfBeforeTheCacheForgotItsEvictionsIsNotStored() async throws {
        try await SnapshotEvictionTests.withLiveCache { snapshots in
            let account = UUID()
            let readBefore = ContinuousClock.now
            snapshots.invalidateAll()
            snapshots.store(try Self.signed(snapshots, account, version: 1), catalogRevision: "r", at: Date(), freshAsOf: readBefore)
            #expect(snapshots.cached(accountId: account, catalogRevision: "r", at: Date()) == nil)

            snapshots.store(try Self.signed(snapshots, account, version: 1), catalogRevision: "r", at: Date(), freshAsOf: .now)
            #expect(snapshots.cached(accountId: account, catalogRevision: "r", at: Date())?.version == 1)
        }
    }

    /// Making room forgets tombstones; an answer read before that could bring back a version
    /// whose eviction is forgotten, so it is refused, however new its version looks.
    @Test func anAnswerReadBeforeTheCacheMadeRoomOverTombstonesIsNotStored() async throws {
        try await SnapshotEvictionTests.withLiveCache(capacity: 4) { snapshots in
            let evicted = (0..<3).map { _ in UUID() }
            for account in evicted { snapshots.invalidate(account, newVersion: 5) }
            let readBefore = ContinuousClock.now
            // The fourth entry fills the cache; the fifth makes room, dropping a tombstone at least.
            for _ in 0..<2 { snapshots.store(try Self.signed(snapshots, UUID(), version: 1), catalogRevision: "r", at: Date()) }

            snapshots.store(try Self.signed(snapshots, evicted[0], version: 6), catalogRevision: "r", at: Date(), freshAsOf: readBefore)
            #expect(snapshots.cached(accountId: evicted[0], catalogRevision: "r", at: Date()) == nil)
            snapshots.store(try Self.signed(snapshots, evicted[0], version: 6), catalogRevision: "r", at: Date(), freshAsOf: .now)
            #expect(snapshots.cached(accountId: evicted[0], catalogRevision: "r", at: Date())?.version == 6)
        }
    }

    /// A tombstone past the cache's age is dropped as room is made; a standby lagging longer
    /// than that (the setting allows it) must not then store its answer from before the
    /// eviction: the refunded version would come back.
    @Test func anAnswerReadBeforeATombstoneAgedOutIsNotStored() async throws {
        try await SnapshotEvictionTests.withLiveCache(capacity: 4) { snapshots in
            let refunded = UUID()
            let readBefore = ContinuousClock.now
            snapshots.invalidate(refunded, newVersion: 6)
            let later = Date().addingTimeInterval(snapshots.maxAge + 1)
            // The fourth entry fills the cache at `later`, when the tombstone is past its age.
            for _ in 0..<4 { snapshots.store(try Self.signed(snapshots, UUID(), version: 1), catalogRevision: "r", at: later) }

            snapshots.store(try Self.signed(snapshots, refunded, version: 5), catalogRevision: "r", at: later, freshAsOf: readBefore)

            #expect(snapshots.cached(accountId: refunded, catalogRevision: "r", at: later) == nil)
        }
    }

    @Test func aPollEvictsWhatChangedOrWentAndConfirmsTheRest() async throws {
        try await SnapshotEvictionTests.withLiveCache { snapshots in
            let (changed, unchanged, deleted) = (UUID(), UUID(), UUID())
            for account in [changed, unchanged, deleted] {
                snapshots.store(try Self.signed(snapshots, account, version: 3), catalogRevision: "r", at: Date())
            }
            let checked = snapshots.cachedVersions()
            #expect(checked == [changed: 3, unchanged: 3, deleted: 3])
            snapshots.confirm(checked, current: [changed: 4, unchanged: 3], checkedAt: .now)

            #expect(snapshots.cached(accountId: unchanged, catalogRevision: "r", at: Date())?.version == 3)
            #expect(snapshots.cached(accountId: changed, catalogRevision: "r", at: Date()) == nil)
            #expect(snapshots.cached(accountId: deleted, catalogRevision: "r", at: Date()) == nil)
            snapshots.store(try Self.signed(snapshots, changed, version: 3), catalogRevision: "r", at: Date())
            #expect(snapshots.cached(accountId: changed, catalogRevision: "r", at: Date()) == nil, "the poll left a tombstone")
        }
    }

    /// A polling feed trusts an entry for three intervals after the read or the poll that
    /// confirmed it; an entry no poll confirmed since is a miss, and one a poll confirms serves again.
    @Test func aPollingFeedServesOnlyWhatAPollConfirmedRecently() async throws {
        let pool = ConnectionPool(
            configuration: PostgresConfiguration(host: "/nonexistent", user: "nobody", database: "none"), size: 1, logger: Self.logger)
        let feed = ChangeFeed(polling: pool, every: .seconds(60), logger: Self.logger)
        let snapshots = SnapshotService(
            signer: try SnapshotSigner(rawKey: nil, logger: Self.logger), offlineGraceSeconds: 3_600, feed: feed, capacity: 10,
            byteBudget: 1 << 27)
        let account = UUID()
        let longAgo = ContinuousClock.now - .seconds(200)
        snapshots.store(try Self.signed(snapshots, account, version: 1), catalogRevision: "r", at: Date(), freshAsOf: .now)
        #expect(snapshots.cachedVersions().isEmpty, "nothing is stored before the first poll")

        feed.setLive(true, pollStartedAt: .now)
        snapshots.invalidateAll()
        snapshots.store(try Self.signed(snapshots, account, version: 1), catalogRevision: "r", at: Date(), freshAsOf: .now)
        #expect(snapshots.cached(accountId: account, catalogRevision: "r", at: Date())?.version == 1)
        snapshots.confirm([account: 1], current: [account: 1], checkedAt: longAgo)
        #expect(snapshots.cached(accountId: account, catalogRevision: "r", at: Date())?.version == 1, "confirming never ages an entry")

        feed.setLive(false)
        #expect(snapshots.cached(accountId: account, catalogRevision: "r", at: Date()) == nil, "a failed poll serves nothing")
        feed.setLive(true, pollStartedAt: longAgo)
        #expect(snapshots.cached(accountId: account, catalogRevision: "r", at: Date()) == nil, "no recent poll serves nothing")
        await pool.shutdown()
    }
}
