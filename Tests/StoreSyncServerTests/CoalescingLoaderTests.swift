import Foundation
import NIOConcurrencyHelpers
@testable import StoreSyncServer
import Testing

/// The loader behind uncached entitlement lookups: requests that queue behind a running load
/// share the next one, never the one in flight.
@Suite struct CoalescingLoaderTests {
    /// Records each load's keys, and holds loads until released.
    actor Loads {
        private(set) var batches: [[Int]] = []
        private var held: [CheckedContinuation<Void, Never>] = []
        private var holding = true

        /// Records `keys`; returns the load's number (0 for the first).
        func begin(_ keys: [Int]) async -> Int {
            batches.append(keys)
            let number = batches.count - 1
            if holding { await withCheckedContinuation { held.append($0) } }
            return number
        }

        func release() {
            holding = false
            held.forEach { $0.resume() }
            held = []
        }
    }

    /// A clock the test moves.
    final class ManualClock: Sendable {
        private let instant = NIOLockedValueBox(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLockedValue { $0 } }
        func advance(by duration: Duration) { instant.withLockedValue { $0 = $0.advanced(by: duration) } }
    }

    /// A loader whose values name the load that produced them: key 3 in load 1 is "3@1".
    static func loader(
        _ loads: Loads, batchSize: Int = 16, failing: Int? = nil, concurrentLoads: Int = 1,
        extraLoadAfter: Duration = .zero, clock: ManualClock = ManualClock()
    ) -> CoalescingLoader<Int, String> {
        CoalescingLoader(
            maxConcurrentLoads: concurrentLoads, maxBatchSize: batchSize, extraLoadAfter: extraLoadAfter,
            now: { clock.now }
        ) { keys in
            let number = await loads.begin(keys)
            if Task.isCancelled { throw CancellationError() }
            if let failing, keys.contains(failing) { throw LoadFailure() }
            return Dictionary(uniqueKeysWithValues: keys.filter { $0 >= 0 }.map { ($0, "\($0)@\(number)") })
        }
    }

    struct LoadFailure: Error {}

    static func waitUntil(_ condition: @Sendable () async -> Bool) async throws {
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while !(await condition()) {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    @Test func queuedRequestsShareTheNextLoadAndNeverTheOneInFlight() async throws {
        let loads = Loads()
        let loader = Self.loader(loads)
        let first = Task { try await loader.value(for: 1) }
        try await Self.waitUntil { await loads.batches.count == 1 }
        // Key 1 again, while its load is in flight: it must wait for a load that starts later
        // (a write committed meanwhile would be missing from the first one).
        let queued = [1, 2, 3, 2].map { key in Task { (key, try await loader.value(for: key)) } }
        try await Self.waitUntil { loader.queuedRequests == 4 }
        await loads.release()

        #expect(try await first.value == "1@0")
        for task in queued {
            let (key, value) = try await task.value
            #expect(value == "\(key)@1")
        }
        let batches = await loads.batches
        #expect(batches.count == 2)
        #expect(batches[0] == [1])
        #expect(batches[1].sorted() == [1, 2, 3], "one load, each key once")
    }

    @Test func aLoadTakesAtMostTheBatchSizeInDistinctKeys() async throws {
        let loads = Loads()
        let loader = Self.loader(loads, batchSize: 2)
        let first = Task { try await loader.value(for: 0) }
        try await Self.waitUntil { await loads.batches.count == 1 }
        let queued = (10..<15).map { key in Task { (key, try await loader.value(for: key)) } }
        try await Self.waitUntil { loader.queuedRequests == 5 }
        await loads.release()

        _ = try await first.value
        for task in queued {
            let (key, value) = try await task.value
            #expect(value?.hasPrefix("\(key)@") == true)
        }
        #expect(await loads.batches.dropFirst().map(\.count) == [2, 2, 1])
    }

    @Test func aKeyTheLoadDoesNotAnswerHasNoValue() async throws {
        let loads = Loads()
        await loads.release()
        #expect(try await Self.loader(loads).value(for: -7) == nil)
    }

    @Test func aFailedLoadFailsEveryRequestInItAndTheNextLoadRunsAnyway() async throws {
        let loads = Loads()
        let loader = Self.loader(loads, failing: 99)
        let first = Task { try await loader.value(for: 1) }
        try await Self.waitUntil { await loads.batches.count == 1 }
        let doomed = [99, 5].map { key in Task { try await loader.value(for: key) } }
        try await Self.waitUntil { loader.queuedRequests == 2 }
        await loads.release()

        #expect(try await first.value == "1@0")
        for task in doomed {
            await #expect(throws: LoadFailure.self) { try await task.value }
        }
        #expect(try await loader.value(for: 5) == "5@2")
    }

    @Test func whenTheTaskRunningALoadIsCancelledTheOthersInItStillGetAnswers() async throws {
        let loads = Loads()
        let loader = Self.loader(loads)
        let first = Task { try await loader.value(for: 0) }
        try await Self.waitUntil { await loads.batches.count == 1 }
        // The first to queue runs the next load for everyone queued after it.
        let leader = Task { try await loader.value(for: 1) }
        try await Self.waitUntil { loader.queuedRequests == 1 }
        let follower = Task { try await loader.value(for: 2) }
        try await Self.waitUntil { loader.queuedRequests == 2 }
        leader.cancel()
        await loads.release()

        _ = try await first.value
        await #expect(throws: CancellationError.self) { try await leader.value }
        #expect(try await follower.value == "2@2", "retried in a load of its own")
        #expect(await loads.batches.map { $0.sorted() } == [[0], [1, 2], [2]])
    }

    @Test func withoutPatienceLoadsStartSideBySideUpToTheLimit() async throws {
        let loads = Loads()
        let loader = Self.loader(loads, concurrentLoads: 2)
        let first = Task { try await loader.value(for: 1) }
        try await Self.waitUntil { await loads.batches.count == 1 }
        let second = Task { try await loader.value(for: 2) }
        try await Self.waitUntil { await loads.batches.count == 2 }
        let third = Task { try await loader.value(for: 3) }
        try await Self.waitUntil { loader.queuedRequests == 1 }
        await loads.release()

        #expect(try await [first.value, second.value, third.value] == ["1@0", "2@1", "3@2"])
    }

    @Test func whileTheRunningLoadIsQuickRequestsQueueBehindItEvenWithASlotFree() async throws {
        let loads = Loads()
        let clock = ManualClock()
        let loader = Self.loader(loads, concurrentLoads: 2, extraLoadAfter: .milliseconds(5), clock: clock)
        let first = Task { try await loader.value(for: 1) }
        try await Self.waitUntil { await loads.batches.count == 1 }
        clock.advance(by: .milliseconds(4))
        let queued = [2, 3].map { key in Task { try await loader.value(for: key) } }
        try await Self.waitUntil { loader.queuedRequests == 2 }
        #expect(await loads.batches.count == 1)
        await loads.release()

        #expect(try await first.value == "1@0")
        for task in queued { #expect(try await task.value?.hasSuffix("@1") == true) }
        #expect(await loads.batches.map { $0.sorted() } == [[1], [2, 3]])
    }

    @Test func aSlowLoadLetsTheNextRequestStartASecondLoadThatTakesTheQueue() async throws {
        let loads = Loads()
        let clock = ManualClock()
        let loader = Self.loader(loads, concurrentLoads: 2, extraLoadAfter: .milliseconds(5), clock: clock)
        let slow = Task { try await loader.value(for: 1) }
        try await Self.waitUntil { await loads.batches.count == 1 }
        let queued = Task { try await loader.value(for: 2) }
        try await Self.waitUntil { loader.queuedRequests == 1 }
        clock.advance(by: .milliseconds(5))
        // The first load has run its 5 ms: this request starts a second one, with the queue.
        let arriving = Task { try await loader.value(for: 3) }
        try await Self.waitUntil { await loads.batches.count == 2 }
        #expect(loader.queuedRequests == 0)
        #expect(await loads.batches[1].sorted() == [2, 3])
        // Two loads run, both slow now: the limit holds.
        clock.advance(by: .milliseconds(5))
        let third = Task { try await loader.value(for: 4) }
        try await Self.waitUntil { loader.queuedRequests == 1 }
        #expect(await loads.batches.count == 2)
        await loads.release()

        #expect(try await slow.value == "1@0")
        #expect(try await queued.value == "2@1")
        #expect(try await arriving.value == "3@1")
        #expect(try await third.value == "4@2")
    }
}
