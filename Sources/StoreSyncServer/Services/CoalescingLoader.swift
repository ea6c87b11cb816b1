import Dispatch
import NIOConcurrencyHelpers

/// Answers concurrent requests for single keys with few batch loads, run back to back on a
/// database connection's own thread.
///
/// A request that finds no load running starts one at once, alone, so an idle server adds no
/// wait. Requests that arrive while a load runs queue. The loader drains the queue on a
/// ``Session`` (a connection lent to it, used on its thread) for as long as requests keep
/// coming: when a load's reply arrives, the queued keys (up to `maxBatchSize` distinct ones) go
/// out as the next load at once, and only then is the reply decoded into values (whatever work
/// the session does there) and answered. PostgreSQL works on the next batch meanwhile, and no
/// task hop lies between two loads: hopping from a request's task to the connection's thread
/// and back would cost a good part of a quick load.
///
/// More sessions (up to `maxConcurrentLoads`) drain side by side only when every running load
/// has run for `extraLoadAfter` already: quick loads then keep batching, and one slow load (an
/// account with a huge ledger) holds the others up for at most that long. The request that
/// starts such a session takes the queue with it.
///
/// A queued request only ever joins a load that starts after it arrived, never one in flight,
/// so every answer reflects every write committed before its request: read-your-writes holds
/// exactly as if each request had loaded alone.
final class CoalescingLoader<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// A load's reply as it arrived; called with the load's keys, it decodes them into values
    /// (a key missing has none).
    typealias Reply = ([Key]) throws -> [Key: Value]

    /// Where loads run: one connection lent to the loader, used from its own thread by one
    /// drain at a time.
    struct Session {
        /// Starts the load of these distinct keys and returns without waiting for it.
        var start: ([Key]) throws -> Void
        /// Waits for the load started last.
        var receive: () throws -> Reply
    }

    /// Lends a session to `drain` on the session's thread, and takes it back when `drain` returns.
    typealias LendSession = @Sendable (_ drain: @escaping @Sendable (Session) -> Void) async throws -> Void

    private let maxConcurrentLoads: Int
    private let maxBatchSize: Int
    private let extraLoadAfter: Duration
    private let idleTimeout: DispatchTimeInterval
    private let now: @Sendable () -> ContinuousClock.Instant
    private let lendSession: LendSession
    private let state = NIOLockedValueBox(State())

    /// - Parameters:
    ///   - maxConcurrentLoads: Sessions draining at once at most (each holds one database connection).
    ///   - maxBatchSize: Distinct keys per load at most.
    ///   - extraLoadAfter: How long every running load must have run before another session
    ///     starts beside it; zero starts one whenever fewer than `maxConcurrentLoads` drain.
    ///   - idleTimeout: How long a session whose queue ran dry waits for the next request before
    ///     it gives its connection back.
    ///   - now: The clock that times running loads.
    ///   - lendSession: Lends a session.
    init(
        maxConcurrentLoads: Int, maxBatchSize: Int, extraLoadAfter: Duration = .zero, idleTimeout: Duration = .zero,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
        lendSession: @escaping LendSession
    ) {
        precondition(maxConcurrentLoads >= 1 && maxBatchSize >= 1)
        self.maxConcurrentLoads = maxConcurrentLoads
        self.maxBatchSize = maxBatchSize
        self.extraLoadAfter = extraLoadAfter
        let (seconds, attoseconds) = idleTimeout.components
        self.idleTimeout = .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        self.now = now
        self.lendSession = lendSession
    }

    /// The value of `key`, `nil` when the load has none; throws what the load threw.
    ///
    /// The load does not run in the caller's task: cancelling the caller does not cancel a load
    /// other requests share.
    func value(for key: Key) async throws -> Value? {
        try await withCheckedThrowingContinuation { continuation in
            let admission = state.withLockedValue { state -> (Admission, batch: [Waiter]) in
                state.queue.append(Waiter(key: key, continuation: continuation))
                let admission = state.admit(limit: maxConcurrentLoads, extraLoadAfter: extraLoadAfter, now: now())
                guard case .startSession = admission else { return (admission, []) }
                return (admission, state.takeBatch(limit: maxBatchSize))
            }
            switch admission {
            case (.wake(let idleSession), _): idleSession.signal()
            case (.startSession(let slot), let batch): drainInBackground(slot: slot, first: batch)
            case (.queue, _): break
            }
        }
    }

    /// Requests waiting for a load (for tests and diagnostics).
    var queuedRequests: Int {
        state.withLockedValue { $0.queue.count }
    }

    /// Borrows a session for `slot` and drains the queue on it, starting with `first`.
    private func drainInBackground(slot: Int, first: [Waiter]) {
        Task {
            let drained = NIOLockedValueBox(false)
            do {
                try await lendSession { session in
                    drained.withLockedValue { $0 = true }
                    self.drain(on: session, slot: slot, first: first)
                }
            } catch where !drained.withLockedValue({ $0 }) {
                // No connection (the pool timed out or shut down): this batch fails as its load
                // would have, and whoever queued meanwhile gets a session of its own.
                answer(first, with: .failure(error))
                if let next = takeBatch(for: slot, ifNone: nil) { drainInBackground(slot: slot, first: next) }
            }
        }
    }

    /// Runs loads back to back while requests keep coming: each next load starts before the
    /// answers of the last go out. Once the queue ran dry and the answers are out, waits up to
    /// `idleTimeout` for a request before giving the session back.
    private func drain(on session: Session, slot: Int, first: [Waiter]) {
        let wakeUp = DispatchSemaphore(value: 0)
        var inFlight = start(first, on: session)
        while true {
            if let load = inFlight {
                let reply = Result { try session.receive() }
                inFlight = takeBatch(for: slot, ifNone: .idle(wakeUp)).flatMap { start($0, on: session) }
                answer(load.batch, with: reply.flatMap { decode in Result { try decode(load.keys) } })
            } else {
                guard let next = takeBatch(for: slot, ifNone: .idle(wakeUp)) ?? awaitBatch(for: slot, on: wakeUp) else {
                    return
                }
                inFlight = start(next, on: session)
            }
        }
    }

    /// Starts the load of `batch`; when that fails, answers it with the failure.
    ///
    /// - Returns: The load in flight: `batch` and its distinct keys.
    private func start(_ batch: [Waiter], on session: Session) -> (batch: [Waiter], keys: [Key])? {
        var keys: [Key] = []
        var seen: Set<Key> = []
        for waiter in batch where seen.insert(waiter.key).inserted { keys.append(waiter.key) }
        do {
            try session.start(keys)
            return (batch, keys)
        } catch {
            answer(batch, with: .failure(error))
            return nil
        }
    }

    /// The next batch for the session in `slot`, timed from now. When nobody waits, the slot
    /// becomes `ifNone`: idle, waiting on a semaphore the next request signals, or `nil`, freed.
    private func takeBatch(for slot: Int, ifNone: Slot?) -> [Waiter]? {
        state.withLockedValue { state in
            guard !state.queue.isEmpty else {
                state.slots[slot] = ifNone
                return nil
            }
            state.slots[slot] = .loading(since: now())
            return state.takeBatch(limit: maxBatchSize)
        }
    }

    /// Waits up to `idleTimeout` for a request to wake the session in `slot`, which waits on
    /// `wakeUp`; gives the slot up when none came.
    ///
    /// - Returns: The batch to load next, or `nil` when the session is to go back.
    private func awaitBatch(for slot: Int, on wakeUp: DispatchSemaphore) -> [Waiter]? {
        while true {
            if wakeUp.wait(timeout: .now() + idleTimeout) == .timedOut {
                let gaveUp = state.withLockedValue { state in
                    guard case .idle = state.slots[slot] else { return false }
                    state.slots[slot] = nil
                    return true
                }
                if gaveUp { return nil }
                // A request took this session just as the wait ended; its signal is on the way.
                wakeUp.wait()
            }
            // A wake-up left over from a request whose batch was taken without waiting finds the
            // queue empty: wait again.
            if let batch = takeBatch(for: slot, ifNone: .idle(wakeUp)) { return batch }
        }
    }

    private func answer(_ batch: [Waiter], with values: Result<[Key: Value], any Error>) {
        for waiter in batch {
            waiter.continuation.resume(with: values.map { $0[waiter.key] })
        }
    }

    /// What a new request does.
    private enum Admission {
        /// Wakes the idle session waiting on this.
        case wake(DispatchSemaphore)
        /// Starts a session in this slot, taking the queue along.
        case startSession(Int)
        /// Waits in the queue for a running session's next load.
        case queue
    }

    private struct Waiter: Sendable {
        let key: Key
        let continuation: CheckedContinuation<Value?, any Error>
    }

    private enum Slot {
        /// Running a load that started then.
        case loading(since: ContinuousClock.Instant)
        /// Idle between loads, waiting on this for a request.
        case idle(DispatchSemaphore)
    }

    private struct State: Sendable {
        /// The sessions lent to the loader; the queue is only ever non-empty while one is loading.
        var slots: [Int: Slot] = [:]
        var nextSlot = 0
        var queue: [Waiter] = []

        /// What a new request does: wake an idle session, start one (a slot for it), or neither.
        mutating func admit(limit: Int, extraLoadAfter: Duration, now: ContinuousClock.Instant) -> Admission {
            for (slot, state) in slots {
                guard case .idle(let wakeUp) = state else { continue }
                slots[slot] = .loading(since: now)
                return .wake(wakeUp)
            }
            let loadStarts = slots.values.compactMap { slot -> ContinuousClock.Instant? in
                guard case .loading(let since) = slot else { return nil }
                return since
            }
            guard slots.count < limit, loadStarts.allSatisfy({ now - $0 >= extraLoadAfter }) else { return .queue }
            defer { nextSlot += 1 }
            slots[nextSlot] = .loading(since: now)
            return .startSession(nextSlot)
        }

        /// Takes the queued requests, from the head, that fit one load: at most `limit`
        /// distinct keys in all.
        mutating func takeBatch(limit: Int) -> [Waiter] {
            var keys: Set<Key> = []
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
