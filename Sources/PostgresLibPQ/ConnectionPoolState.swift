internal import NIOCore

/// The pool's bookkeeping; only ever touched under the pool's lock.
struct ConnectionPoolState {
    struct Waiter {
        let id: Int
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
    var isShutDown = false
    /// Shutdown calls waiting for every lent connection to come back.
    var drainWaiters: [CheckedContinuation<Void, Never>] = []

    mutating func removeWaiter(id: Int) -> Waiter? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index)
    }
}
