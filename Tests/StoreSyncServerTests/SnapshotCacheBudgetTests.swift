import Foundation
import StoreSyncCore
@testable import StoreSyncServer
import Testing

/// The snapshot cache holds at most its byte budget of bodies, whatever the accounts' histories:
/// counted in entries alone, accounts with thousands of purchases (4 MB a snapshot) would let it
/// grow to gigabytes.
@Suite struct SnapshotCacheBudgetTests {
    static let budget = 1 << 20

    /// A signed snapshot of an account holding `purchases` versions.
    static func signed(_ snapshots: SnapshotService, account: UUID, version: Int64 = 1, purchases: Int, at now: Date) throws
        -> SignedSnapshot
    {
        let ledger = Ledger(records: (0..<purchases).map { _ in TestPurchases.record(purchased: now) })
        return try snapshots.snapshot(accountId: account, version: version, ledger: ledger, catalog: Catalog([]), at: now)
    }

    /// The bytes of the bodies the cache would serve for `accounts`.
    static func cachedBytes(_ snapshots: SnapshotService, _ accounts: [UUID], at now: Date) -> Int {
        accounts.compactMap { snapshots.cached(accountId: $0, catalogRevision: "r", at: now)?.body.count }.reduce(0, +)
    }

    @Test func bodiesBeyondTheBudgetMakeRoomAndTheTotalStaysWithinIt() async throws {
        try await SnapshotEvictionTests.withLiveCache(capacity: 10_000, byteBudget: Self.budget) { snapshots in
            let now = Date()
            var accounts: [UUID] = []
            var largest = 0
            for _ in 0..<60 {
                let account = UUID()
                let signed = try Self.signed(snapshots, account: account, purchases: 100, at: now)
                largest = max(largest, signed.body.count)
                snapshots.store(signed, catalogRevision: "r", at: now)
                accounts.append(account)
                #expect(Self.cachedBytes(snapshots, accounts, at: now) <= Self.budget)
                // The one just stored is always kept.
                #expect(snapshots.cached(accountId: account, catalogRevision: "r", at: now) != nil)
            }
            // Sixty bodies of ~40 KB do not fit in 1 MiB: some were let go, most of the budget is in use.
            #expect(largest * 60 > Self.budget)
            let cached = accounts.filter { snapshots.cached(accountId: $0, catalogRevision: "r", at: now) != nil }
            #expect(cached.count < 60)
            #expect(Self.cachedBytes(snapshots, accounts, at: now) >= Self.budget / 2)
        }
    }

    @Test func aNewerVersionReplacesTheOlderBodyWithoutCountingBoth() async throws {
        try await SnapshotEvictionTests.withLiveCache(capacity: 10_000, byteBudget: Self.budget) { snapshots in
            let now = Date()
            let others = (0..<15).map { _ in UUID() }
            for account in others {
                snapshots.store(try Self.signed(snapshots, account: account, purchases: 100, at: now), catalogRevision: "r", at: now)
            }
            let account = UUID()
            for version in Int64(1)...40 {
                snapshots.store(
                    try Self.signed(snapshots, account: account, version: version, purchases: 100, at: now),
                    catalogRevision: "r", at: now)
            }
            // 16 bodies of ~40 KB fit; had each version of one account been counted again, the
            // others would have been let go to make room for bytes no longer held.
            #expect(snapshots.cached(accountId: account, catalogRevision: "r", at: now)?.version == 40)
            #expect(others.allSatisfy { snapshots.cached(accountId: $0, catalogRevision: "r", at: now) != nil })
        }
    }

    @Test func aBodyOverAnEighthOfTheBudgetIsServedButNotCached() async throws {
        try await SnapshotEvictionTests.withLiveCache(capacity: 10_000, byteBudget: Self.budget) { snapshots in
            let now = Date()
            let small = UUID()
            snapshots.store(try Self.signed(snapshots, account: small, purchases: 10, at: now), catalogRevision: "r", at: now)
            let large = UUID()
            let signed = try Self.signed(snapshots, account: large, purchases: 400, at: now)
            #expect(signed.body.count > Self.budget / 8)
            snapshots.store(signed, catalogRevision: "r", at: now)
            #expect(snapshots.cached(accountId: large, catalogRevision: "r", at: now) == nil)
            #expect(snapshots.cached(accountId: small, catalogRevision: "r", at: now) != nil)
        }
    }
}
