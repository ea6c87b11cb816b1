import Foundation
import NIOConcurrencyHelpers
@testable import StoreSyncServer
import Testing

/// The loader behind uncached entitlement lookups: requests that queue behind a running load
/// share the next one, never the one in flight, and loads run back to back on a session's thread.
@Suite struct CoalescingLoaderTests {
    typealias Loader = CoalescingLoader<Int, String>

    /// Sessions on threads of their own, as connections have: records each load's keys and what
    /// happened in which order, and holds every reply until released.
    final class Loads: @unchecked Sendable {  // every stored property is guarded by `condition`
        private let condition = NSCondition()
        private var recorded: [[Int]] = []
        private var happened: [String] = []
        private var holding = true
        private var lent = 0
        private var returned = 0
        private var refusals: Int
        private let failing: Int?

        /// - Parameters:
        ///   - failing: A key whose loads fail when decoded.
        ///   - refusals: How many times lending a session fails first.
        init(failing: Int? = nil, refusals: Int = 0) {
            self.failing = failing
            self.refusals = refusals
        }

        var batches: [[Int]] { condition.withLock { recorded } }
        var events: [String] { condition.withLock { happened } }
        var sessionsLent: Int { condition.withLock { lent } }
        var sessionsReturned: Int { condition.withLock { returned } }

        func release() {
            condition.withLock {
                holding = false
                condition.broadcast()
            }
        }

        /// The loader's `lendSession`.
        func lendSession(_ drain: @escaping @Sendable (Loader.Session) -> Void) async throws {
            try condition.withLock {
                if refusals > 0 {
                    refusals -= 1
                    throw LendFailure()
                }
                lent += 1
            }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                Thread {
                    drain(self.session())
                    self.condition.withLock { self.returned += 1 }
                    done.resume()
                }.start()
            }
        }

        /// Values name the load that produced them: key 3 in load 1 is "3@1"; negative keys have none.
        private func session() -> Loader.Session {
            // Like a connection, a session knows which of its statements is outstanding.
            var outstanding = 0
            return Loader.Session(
                start: { keys in
                    outstanding = self.condition.withLock {
                        self.recorded.append(keys)
                        self.happened.append("started \(self.recorded.count - 1)")
                        return self.recorded.count - 1
                    }
                },
                receive: {
                    let number = outstanding
                    self.condition.withLock {
                        while self.holding { self.condition.wait() }
                        self.happened.append("received \(number)")
                    }
                    return { keys in
                        self.condition.withLock { self.happened.append("decoded \(number)") }
                        if let failing = self.failing, keys.contains(failing) { throw LoadFailure() }
                        return Dictionary(uniqueKeysWithValues: keys.filter { $0 >= 0 }.map { ($0, "\($0)@\(number)") })
                    }
                })
        }
    }

    /// A clock the test moves.
    final class ManualClock: Sendable {
        private let instant = NIOLockedValueBox(ContinuousClock.now)
        var now: ContinuousClock.Instant { instant.withLockedValue { $0 } }
        func advance(by duration: Duration) { instant.withLockedValue { $0 = $0.advanced(by: duration) } }
    }

    static func loader(
        _ loads: Loads, batchSize: Int = 16, concurrentLoads: Int = 1, extraLoadAfter: Duration = .zero,
        idleTimeout: Duration = .zero, clock: ManualClock = ManualClock()
    ) -> Loader {
        Loader(
            maxConcurrentLoads: concurrentLoads, maxBatchSize: batchSize, extraLoadAfter: extraLoadAfter, idleTimeout: idleTimeout,
            now: { clock.now }, lendSession: loads.lendSession)
    }

    struct LoadFailure: Error {}
    struct LendFailure: Error {}

    /// Waits for `condition`; the deadline only stops a broken loader from hanging the suite, so
    /// it is far beyond what a loaded machine needs.
    static func waitUntil(_ condition: @Sendable () async -> Bool) async throws {
        let deadline = ContinuousClock.now.advanced(by: .seconds(120))
        while !(await condition()) {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    @Test func queuedRequestsShareTheNextLoadAndNeverTheOneInFlight() async throws {
        let loads = Loads()
        let loader = Self.loader(loads)
        let first = Task { try await loader.value(for: 1) }
        try await Self.waitUntil { loads.batches.count == 1 }
        // Key 1 again, while its load is in flight: it must wait for a load that starts later
        // (a write committed meanwhile would be missing from the first one).
        let queued = [1, 2, 3, 2].map { key in Task { (key, try await loader.value(for: key)) } }
        try await Self.waitUntil { loader.queuedRequests == 4 }
        loads.release()

        #expect(try await first.value == "1@0")
        for task in queued {
            let (key, value) = try await task.value
            #expect(value == "\(key)@1")
        }
        let batches = loads.batches
        #expect(batches.count == 2)
        #expect(batches[0] == [1])
        #expect(batches[1].sorted() == [1, 2, 3], "one load, each key once")
    }

    @Test func theNextLoadStartsBeforeTheLastRepliesAreDecoded() async throws {
        let loads = Loads()
        let loader = Self.loader(loads)
        let first = Task { try await loader.value(for: 1) }
        try await Self.waitUntil { loads.batches.count == 1 }
        let second = Task { try await loader.value(for: 2) }
        try await Self.waitUntil { loader.queuedRequests == 1 }
        loads.release()

        #expect(try await [first.value, second.value] == ["1@0", "2@1"])
        #expect(loads.events == ["started 0", "received 0", "started 1", "decoded 0", "received 1", "decoded 1"])
        #expect(loads.sessionsLent == 1, "both loads ran on one session")
    }

    @Test func aLoadTakesAtMostTheBatchSizeInDistinctKeys() async throws {
        let loads = Loads()
        let loader = Self.loader(loads, batchSize: 2)
        let first = Task { try await loader.value(for: 0) }
        try await Self.waitUntil { loads.batches.count == 1 }
        let queued = (10..<15).map { key in Task { (key, try await loader.value(for: key)) } }
        try await Self.waitUntil { loader.queuedRequests == 5 }
        loads.release()

        _ = try await first.value
        for task in queued {
            let (key, value) = try await task.value
            #expect(value?.hasPrefix("\(key)@") == true)
        }
        #expect(loads.batches.dropFirst().map(\.count) == [2, 2, 1])
    }

    @Test func aKeyTheLoadDoesNotAnswerHasNoValue() async throws {
        let loads = Loads()
        loads.release()
        #expect(try await Self.loader(loads).value(for: -7) == nil)
    }

    @Test func aFailedLoadFailsEveryRequestInItAndTheNextLoadRunsAnyway() async throws {
        let loads = Loads(failing: 99)
        let loader = Self.loader(loads)
        let first = Task { try await loader.value(for: 1) }
        try await Self.waitUntil { loads.batches.count == 1 }
        let doomed = [99, 5].map { key in Task { try await loader.value(for: key) } }
        try await Self.waitUntil { loader.queuedRequests == 2 }
        loads.release()

        #expect(try await first.value == "1@0")
        for task in doomed {
            await #expect(throws: LoadFailure.self) { try await task.value }
        }
        #expect(try await loader.value(for: 5) == "5@2")
    }

    @Test func cancellingOneRequestCancelsNoLoadOthersShare() async throws {
        let loads = Loads()
        let loader = Self.loader(loads)
        let first = Task { try await loader.value(for: 0) }
        try await Self.waitUntil { loads.batches.count == 1 }
        let cancelled = Task { try await loader.value(for: 1) }
        try await Self.waitUntil { loader.queuedRequests == 1 }
        let other = Task { try await loader.value(for: 2) }
        try await Self.waitUntil { loader.queuedRequests == 2 }
        cancelled.cancel()
        first.cancel()
        loads.release()

        #expect(try await first.value == "0@0", "a load runs in no request's task")
        #expect(try await cancelled.value == "1@1")
        #expect(try await other.value == "2@1")
        #expect(loads.batches.map { $0.sorted() } == [[0], [1, 2]])
    }

    @Test func aSessionThatCannotBeLentFailsItsRequestsAndTheNextRequestBorrowsAnother() async throws {
        let loads = Loads(refusals: 1)
        loads.release()
        let loader = Self.loader(loads)

        await #expect(throws: LendFailure.self) { try await loader.value(for: 1) }
        #expect(try await loader.value(for: 1) == "1@0")
        #expect(loads.sessionsLent == 1)
    }

    @Test func anIdleSessionWaitsForTheNextRequestUntilItsIdleTimeout() async throws {
        let loads = Loads()
        loads.release()
        let loader = Self.loader(loads, idleTimeout: .seconds(5))

        #expect(try await loader.value(for: 1) == "1@0")
        #expect(try await loader.value(for: 2) == "2@1")
        #expect(loads.sessionsLent == 1, "the second request found the first session idle")
        #expect(loads.sessionsReturned == 0)
    }

    @Test func withoutAnIdleTimeoutASessionGoesBackAsSoonAsItsQueueRunsDry() async throws {
        let loads = Loads()
        loads.release()
        let loader = Self.loader(loads)

        #expect(try await loader.value(for: 1) == "1@0")
        try await Self.waitUntil { loads.sessionsReturned == 1 }
        #expect(try await loader.value(for: 2) == "2@1")
        #expect(loads.sessionsLent == 2)
    }

    @Test func withoutPatienceLoadsStartSideBySideUpToTheLimit() async throws {
        let loads = Loads()
        let loader = Self.loader(loads, concurrentLoads: 2)
        let first = Task { try await loader.value(for: 1) }
        try await Self.waitUntil { loads.batches.count == 1 }
        let second = Task { try await loader.value(for: 2) }
        try await Self.waitUntil { loads.batches.count == 2 }
        let third = Task { try await loader.value(for: 3) }
        try await Self.waitUntil { loader.queuedRequests == 1 }
        loads.release()

        #expect(try await [first.value, second.value, third.value] == ["1@0", "2@1", "3@2"])
    }

    @Test func whileTheRunningLoadIsQuickRequestsQueueBehindItEvenWithASlotFree() async throws {
        let loads = Loads()
        let clock = ManualClock()
        let loader = Self.loader(loads, concurrentLoads: 2, extraLoadAfter: .milliseconds(5), clock: clock)
        let first = Task { try await loader.value(for: 1) }
        try await Self.waitUntil { loads.batches.count == 1 }
        clock.advance(by: .milliseconds(4))
        let queued = [2, 3].map { key in Task { try await loader.value(for: key) } }
        try await Self.waitUntil { loader.queuedRequests == 2 }
        #expect(loads.batches.count == 1)
        loads.release()

        #expect(try await first.value == "1@0")
        for task in queued { #expect(try await task.value?.hasSuffix("@1") == true) }
        #expect(loads.batches.map { $0.sorted() } == [[1], [2, 3]])
    }

    @Test func aSlowLoadLetsTheNextRequestStartASecondSessionThatTakesTheQueue() async throws {
        let loads = Loads()
        let clock = ManualClock()
        let loader = Self.loader(loads, concurrentLoads: 2, extraLoadAfter: .milliseconds(5), clock: clock)
        let slow = Task { try await loader.value(for: 1) }
        try await Self.waitUntil { loads.batches.count == 1 }
        let queued = Task { try await loader.value(for: 2) }
        try await Self.waitUntil { loader.queuedRequests == 1 }
        clock.advance(by: .milliseconds(5))
        // The first load has run its 5 ms: this request starts a second session, with the queue.
        let arriving = Task { try await loader.value(for: 3) }
        try await Self.waitUntil { loads.batches.count == 2 }
        #expect(loader.queuedRequests == 0)
        #expect(loads.batches[1].sorted() == [2, 3])
        // Two loads run, both slow now: the limit holds.
        clock.advance(by: .milliseconds(5))
        let third = Task { try await loader.value(for: 4) }
        try await Self.waitUntil { loader.queuedRequests == 1 }
        #expect(loads.batches.count == 2)
        loads.release()

        #expect(try await slow.value == "1@0")
        #expect(try await queued.value == "2@1")
        #expect(try await arriving.value == "3@1")
        #expect(try await third.value == "4@2")
        #expect(loads.sessionsLent == 2)
    }
}
