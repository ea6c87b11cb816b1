internal import NIOCore

/// The pool's bookkeeping; only ever touched under the pool's lock.
struct ConnectionPoolState {
    struct Waiter {
        let id: Int
        /// When the caller gives up; waiters queue in arrival order, so deadlines only grow.
        let deadline: ContinuousClock.Instant
        let continuation: CheckedContinuation<PostgresConnection, any Error>
    }

    /// Every connection object created, for closing them at shutdown.
    var all: [PostgresConnection] = []
    /// Free connections; the most recently returned is lent first, keeping its socket and plans warm.
    var idle: [PostgresConnection] = []
    var inUse = 0
    /// Callers waiting for a connection, served first come, first served.
    var waiters = CircularBuffer<Waiter>()
    var nextWaiterID = 0
    /// Callers failed because no connection became free within the checkout timeout, ever.
    var checkoutTimeouts = 0
    var isShutDown = false
    /// Whether a task is sweeping expired waiters; it runs only while someone waits.
    var isSweeping = false
    /// Shutdown calls waiting for every lent connection to come back.
    var drainWaiters: [CheckedContinuation<Void, Never>] = []

    /// Removes the waiters whose deadline passed (all at the front of the queue).
    mutating func removeExpiredWaiters(now: ContinuousClock.Instant) -> [Waiter] {
        var expired: [Waiter] = []
        while let first = waiters.first, first.deadline <= now {
            expired.append(waiters.removeFirst())
        }
        checkoutTimeouts += expired.count
        return expired
    }

    mutating func removeWaiter(id: Int) -> Waiter? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index)
    }
}
