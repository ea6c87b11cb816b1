import NIOConcurrencyHelpers

/// Answers concurrent requests for single keys with few calls of a batch `load`.
///
/// A request that finds no load running loads its key at once, alone, so an idle server adds
/// no wait. Requests that arrive while a load runs queue; when a load finishes, the task that
/// ran it hands the queue (up to `maxBatchSize` distinct keys) to the first queued request,
/// whose task loads them all in one call and answers the others. Under load, one database
/// round trip then serves many requests: fewer statements for PostgreSQL and fewer thread
/// wake-ups per answer.
///
/// More loads (up to `maxConcurrentLoads`) run side by side only when every running one has
/// run for `extraLoadAfter` already: quick loads then keep batching, and one slow load (an
/// account with a huge ledger) holds the others up for at most that long. The request that
/// starts such a load takes the queue with it.
///
/// A queued request only ever joins a load that starts after it arrived, never one in flight,
/// so every answer reflects every write committed before its request: read-your-writes holds
/// exactly as if each request had loaded alone.
final class CoalescingLoader<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Loads many keys at once; a key missing from the answer has no value.
    typealias Load = @Sendable ([Key]) async throws -> [Key: Value]

    private let maxConcurrentLoads: Int
    private let maxBatchSize: Int
    private let extraLoadAfter: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let load: Load
    private let state = NIOLockedValueBox(State())

    /// - Parameters:
    ///   - maxConcurrentLoads: Loads in flight at once at most (each holds one database connection).
    ///   - maxBatchSize: Distinct keys per load at most.
    ///   - extraLoadAfter: How long every running load must have run before another starts
    ///     beside it; zero starts one whenever fewer than `maxConcurrentLoads` run.
    ///   - now: The clock that times running loads.
    ///   - load: The batch load.
    init(
        maxConcurrentLoads: Int, maxBatchSize: Int, extraLoadAfter: Duration = .zero,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }, load: @escaping Load
    ) {
        precondition(maxConcurrentLoads >= 1 && maxBatchSize >= 1)
        self.maxConcurrentLoads = maxConcurrentLoads
        self.maxBatchSize = maxBatchSize
        self.extraLoadAfter = extraLoadAfter
        self.now = now
        self.load = load
    }

    /// The value of `key`, `nil` when the load has none; throws what the load threw.
    func value(for key: Key) async throws -> Value? {
        let wake: Wake
        if let started = state.withLockedValue({ startLoad(&$0, for: key) }) {
            wake = started
        } else {
            wake = await withCheckedContinuation { continuation in
                let started = state.withLockedValue { state -> Wake? in
                    // A load may have become possible since the first look.
                    if let started = startLoad(&state, for: key) { return started }
                    state.queue.append(Waiter(key: key, continuation: continuation))
                    return nil
                }
                if let started { continuation.resume(returning: started) }
            }
        }
        switch wake {
        case .lead(let slot, let followers):
            return try await lead(key: key, slot: slot, followers: followers)
        case .answered(.failure(let error)) where error is CancellationError && !Task.isCancelled:
            // The task that ran the load was cancelled (its client went away); this one was not.
            return try await value(for: key)
        case .answered(let result):
            return try result.get()
        }
    }

    /// Starts a load for `key` and the queue's head, if one may start now.
    private func startLoad(_ state: inout State, for key: Key) -> Wake? {
        guard let slot = state.startLoad(limit: maxConcurrentLoads, patience: extraLoadAfter, now: now()) else { return nil }
        return .lead(slot: slot, followers: state.takeBatch(joining: key, limit: maxBatchSize))
    }

    /// Requests waiting for a load (for tests and diagnostics).
    var queuedRequests: Int {
        state.withLockedValue { $0.queue.count }
    }

    /// Runs one load for `key` and the followers' keys, passes the slot on, answers everyone.
    private func lead(key: Key, slot: Int, followers: [Waiter]) async throws -> Value? {
        var keys = [key]
        var seen: Set<Key> = [key]
        for follower in followers where seen.insert(follower.key).inserted {
            keys.append(follower.key)
        }
        let result: Result<[Key: Value], any Error>
        do {
            result = .success(try await load(keys))
        } catch {
            result = .failure(error)
        }
        // Hand the slot over before answering, so the next load starts while answers go out.
        handOver(slot)
        for follower in followers {
            follower.continuation.resume(returning: .answered(result.map { $0[follower.key] }))
        }
        return try result.get()[key]
    }

    /// Gives a finished load's slot to the queue's head with its batch, or frees it.
    private func handOver(_ slot: Int) {
        let next = state.withLockedValue { state -> (leader: Waiter, followers: [Waiter])? in
            guard !state.queue.isEmpty else {
                state.loadStarts[slot] = nil
                return nil
            }
            state.loadStarts[slot] = now()
            let leader = state.queue.removeFirst()
            return (leader, state.takeBatch(joining: leader.key, limit: maxBatchSize))
        }
        if let next {
            next.leader.continuation.resume(returning: .lead(slot: slot, followers: next.followers))
        }
    }

    private enum Wake: Sendable {
        /// Run the load for yourself and these, in this slot.
        case lead(slot: Int, followers: [Waiter])
        /// Someone else's load answered.
        case answered(Result<Value?, any Error>)
    }

    private struct Waiter: Sendable {
        let key: Key
        let continuation: CheckedContinuation<Wake, Never>
    }

    private struct State: Sendable {
        /// When the load in each busy slot started; the queue is only ever non-empty while a
        /// load runs.
        var loadStarts: [Int: ContinuousClock.Instant] = [:]
        var nextSlot = 0
        var queue: [Waiter] = []

        /// A slot for a new load, if one may start now.
        mutating func startLoad(limit: Int, patience: Duration, now: ContinuousClock.Instant) -> Int? {
            guard loadStarts.count < limit, loadStarts.values.allSatisfy({ now - $0 >= patience }) else { return nil }
            defer { nextSlot += 1 }
            loadStarts[nextSlot] = now
            return nextSlot
        }

        /// Takes the queued requests, from the head, that fit one load with `key`: at most
        /// `limit` distinct keys in all.
        mutating func takeBatch(joining key: Key, limit: Int) -> [Waiter] {
            var keys: Set<Key> = [key]
            var taken = 0
            for waiter in queue {
                if !keys.contains(waiter.key) {
                    guard keys.count < limit else { break }
                    keys.insert(waiter.key)
                }
                taken += 1
            }
            defer { queue.removeFirst(taken) }
            return Array(queue[..<taken])
        }
    }
}
