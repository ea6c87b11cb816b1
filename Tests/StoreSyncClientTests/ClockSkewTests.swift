import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

/// Offline validity is judged in the server's time: a device clock set wrong neither denies
/// a paying user nor revives a snapshot that ran out.
@Suite struct ClockSkewTests {
    static let day: TimeInterval = 86_400

    /// A signed-up device whose clock runs `skew` seconds from the server's, holding a fresh
    /// snapshot that grants `premium` for life.
    static func entitledDevice(on server: TestServer, skew: TimeInterval = 0) async throws -> TestDevice {
        let device = TestDevice(server: server, clock: TestClock(start: server.clock.now().addingTimeInterval(skew)))
        try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
        _ = try await device.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)
        _ = try await device.client.refresh()
        return device
    }

    @Test(arguments: [4 * day, -4 * day])
    func snapshotJustFetchedIsFreshWhateverTheDeviceClock(skew: TimeInterval) async throws {
        try await withLiveServer { server in
            let device = try await Self.entitledDevice(on: server, skew: skew)
            #expect(await device.client.entitlements().freshness == .fresh)
            #expect(await device.client.isEntitled(to: "premium"))
        }
    }

    @Test func validUntilEndsOfflineTrustInServerTimeOnAClockDaysAhead() async throws {
        try await withLiveServer { server in
            let device = try await Self.entitledDevice(on: server, skew: 4 * Self.day)
            let validUntil = try #require(await device.client.entitlements().validUntil)
            device.transport.isOffline = true

            let untilJustBefore = validUntil.timeIntervalSince(server.clock.now()) - 1
            server.clock.advance(by: untilJustBefore)
            device.clock.advance(by: untilJustBefore)
            #expect(await device.client.isEntitled(to: "premium"), "a second before validUntil, server time")
            server.clock.advance(by: 1)
            device.clock.advance(by: 1)
            #expect(await device.client.entitlements().freshness == .stale)
            #expect(await device.client.isEntitled(to: "premium") == false)
        }
    }

    @Test func clockSetBackBeforeTheSnapshotMakesItStaleUntilARefresh() async throws {
        try await withLiveServer { server in
            let device = try await Self.entitledDevice(on: server)
            let generatedAt = try #require(await device.client.entitlements().generatedAt)
            device.transport.isOffline = true

            device.clock.set(generatedAt.addingTimeInterval(-Self.day))
            #expect(await device.client.entitlements().freshness == .stale)
            #expect(await device.client.isEntitled(to: "premium") == false)
            device.clock.set(generatedAt.addingTimeInterval(-60))
            #expect(await device.client.isEntitled(to: "premium"), "a clock a minute off is tolerated")

            device.transport.isOffline = false
            server.clock.advance(by: 120)
            device.clock.set(generatedAt.addingTimeInterval(-Self.day))
            _ = try await device.client.refresh()
            #expect(await device.client.isEntitled(to: "premium"), "the refresh measured the clock again")
        }
    }

    @Test func clockSetBackAfterLaterTimesWereSeenDoesNotReviveTheSnapshot() async throws {
        try await withLiveServer { server in
            let device = try await Self.entitledDevice(on: server)
            device.transport.isOffline = true

            device.clock.advance(by: 2 * Self.day)
            #expect(await device.client.isEntitled(to: "premium"), "two days into the three days of grace")
            let seen = device.clock.now()
            device.clock.set(seen.addingTimeInterval(-Self.day))
            #expect(await device.client.isEntitled(to: "premium") == false, "set back a day, after the snapshot")

            // The latest time seen is kept with the cache: a relaunch does not forget it.
            let relaunched = device.relaunched(on: server)
            #expect(await relaunched.client.isEntitled(to: "premium") == false)
            relaunched.clock.set(seen)
            #expect(await relaunched.client.isEntitled(to: "premium"), "the clock put right again")
        }
    }

    @Test func cacheWithoutAClockRecordJudgesByTheDeviceClock() async throws {
        try await withLiveServer { server in
            let device = try await Self.entitledDevice(on: server)
            let accountId = try #require(await device.client.session).accountId
            try device.store.set(nil, forKey: CachePartition.account(accountId).key(.clock))

            #expect(await device.client.isEntitled(to: "premium"))
            let generatedAt = try #require(await device.client.entitlements().generatedAt)
            device.clock.set(generatedAt.addingTimeInterval(-Self.day))
            #expect(await device.client.isEntitled(to: "premium") == false)
        }
    }

    @Test func clockMeasuredOnAnotherDeviceSharingTheCacheDoesNotSkewThisOne() async throws {
        try await withLiveServer { server in
            // One cache for both, as iCloud key-value storage would share it; each its own session store.
            let shared = InMemoryStore()
            let email = TestAccount.email()
            let aheadClock = TestClock(start: server.clock.now().addingTimeInterval(4 * Self.day))
            let ahead = TestDevice(server: server, store: shared, clock: aheadClock)
            try await ahead.client.signUp(email: email, password: TestAccount.password)
            _ = try await ahead.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)
            #expect(await ahead.client.isEntitled(to: "premium"))

            let onTime = TestDevice(server: server, store: shared, clock: TestClock(start: server.clock.now()))
            try await onTime.client.signIn(email: email, password: TestAccount.password)
            #expect(await onTime.client.isEntitled(to: "premium"), "judged by its own clock, not the other's offset")
            #expect(await ahead.client.isEntitled(to: "premium"), "the other keeps its own measurement")
        }
    }
}
