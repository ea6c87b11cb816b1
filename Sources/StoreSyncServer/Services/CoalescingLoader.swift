import NIOConcurrencyHelpers

/// Answers concurrent requests for single keys with few calls of a batch `load`.
///
/// At most `maxConcurrentLoads` loads run at once. A request that finds a free slot loads its
/// key at once, alone, so an idle server adds no wait. Requests that arrive while every slot is
/// busy queue; when a load finishes, the task that ran it hands the queue (up to
/// `maxBatchSize` distinct keys) to the first queued request, whose task loads them all in one
/// call and answers the others. Under load, one database round trip then serves many requests:
/// fewer statements for PostgreSQL and fewer thread wake-ups per answer.
///
/// A queued request only ever joins a load that starts after it arrived, never one in flight,
/// so every answer reflects every write committed before its request: read-your-writes holds
/// exactly as if each request had loaded alone.
final class CoalescingLoader<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Loads many keys at once; a key missing from the answer has no value.
    typealias Load = @Sendable ([Key]) async throws -> [Key: Value]

    private let maxConcurrentLoads: Int
    private let maxBatchSize: Int
    private let load: Load
    private let state = NIOLockedValueBox(State())

    /// - Parameters:
    ///   - maxConcurrentLoads: Loads in flight at once (each holds one database connection).
    ///   - maxBatchSize: Distinct keys per load at most.
    ///   - load: The batch load.
    init(maxConcurrentLoads: Int, maxBatchSize: Int, load: @escaping Load) {
        precondition(maxConcurrentLoads >= 1 && maxBatchSize >= 1)
        self.maxConcurrentLoads = maxConcurrentLoads
        self.maxBatchSize = maxBatchSize
        self.load = load
    }

    /// The value of `key`, `nil` when the load has none; throws what the load threw.
    func value(for key: Key) async throws -> Value? {
        let wake: Wake
        if state.withLockedValue({ $0.takeSlot(limit: maxConcurrentLoads) }) {
            wake = .lead(followers: [])
        } else {
            wake = await withCheckedContinuation { continuation in
                let admitted = state.withLockedValue { state in
                    // A slot may have come free since the first look.
                    if state.takeSlot(limit: maxConcurrentLoads) { return true }
                    state.queue.append(Waiter(key: key, continuation: continuation))
                    return false
                }
                if admitted { continuation.resume(returning: .lead(followers: [])) }
            }
        }
        switch wake {
        case .lead(let followers):
            return try await lead(key: key, followers: followers)
        case .answered(.failure(let error)) where error is CancellationError && !Task.isCancelled:
            // The task that ran the load was cancelled (its client went away); this one was not.
            return try await value(for: key)
        case .answered(let result):
            return try result.get()
        }
    }

    /// Requests waiting for a slot (for tests and diagnostics).
    var queuedRequests: Int {
        state.withLockedValue { $0.queue.count }
    }

    /// Runs one load for `key` and the followers' keys, passes the slot on, answers everyone.
    private func lead(key: Key, followers: [Waiter]) async throws -> Value? {
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
        handOver()
        for follower in followers {
            follower.continuation.resume(returning: .answered(result.map { $0[follower.key] }))
        }
        return try result.get()[key]
    }

    /// Gives the finished load's slot to the queue's head with its batch, or frees it.
    private func handOver() {
        let next = state.withLockedValue { state -> (leader: Waiter, followers: [Waiter])? in
            guard !state.queue.isEmpty else {
                state.running -= 1
                return nil
            }
            var keys: Set<Key> = []
            var taken = 0
            for waiter in state.queue {
                if !keys.contains(waiter.key) {
                    guard keys.count < maxBatchSize else { break }
                    keys.insert(waiter.key)
                }
                taken += 1
            }
            let batch = state.queue[..<taken]
            defer { state.queue.removeFirst(taken) }
            return (batch.first!, Array(batch.dropFirst()))
        }
        if let next {
            next.leader.continuation.resume(returning: .lead(followers: next.followers))
        }
    }

    private enum Wake: Sendable {
        /// Run the load for yourself and these.
        case lead(followers: [Waiter])
        /// Someone else's load answered.
        case answered(Result<Value?, any Error>)
    }

    private struct Waiter: Sendable {
        let key: Key
        let continuation: CheckedContinuation<Wake, Never>
    }

    private struct State: Sendable {
        /// Loads in flight; the queue is only ever non-empty while every slot is taken.
        var running = 0
        var queue: [Waiter] = []

        mutating func takeSlot(limit: Int) -> Bool {
            guard running < limit else { return false }
            running += 1
            return true
        }
    }
}
