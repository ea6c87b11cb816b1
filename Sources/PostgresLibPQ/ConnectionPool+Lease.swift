internal import Logging
internal import NIOConcurrencyHelpers
internal import NIOCore

extension ConnectionPool {
    private enum Checkout {
        case lent(PostgresConnection)
        case failed(any Error)
        case queued
    }

    /// Takes a free connection, creates one while below `size`, or queues the caller.
    func lease() async throws -> PostgresConnection {
        if case .lent(let connection) = state.withLockedValue({ checkout(&$0, waiter: nil) }) {
            connection.core.markLeased()
            return connection
        }
        let id = state.withLockedValue { state in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        let deadline = ContinuousClock.now.advanced(by: checkoutTimeout)
        let connection = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PostgresConnection, any Error>) in
                let waiter = ConnectionPoolState.Waiter(id: id, deadline: deadline, continuation: continuation)
                let (decision, startSweeper) = state.withLockedValue { state in
                    let decision = checkout(&state, waiter: waiter)
                    guard case .queued = decision, !state.isSweeping else { return (decision, false) }
                    state.isSweeping = true
                    return (decision, true)
                }
                switch decision {
                case .lent(let connection): continuation.resume(returning: connection)
                case .failed(let error): continuation.resume(throwing: error)
                case .queued: break
                }
                if startSweeper { startSweepingExpiredWaiters() }
            }
        } onCancel: {
            failWaiter(id: id, with: CancellationError())
        }
        connection.core.markLeased()
        return connection
    }

    /// Decides a checkout under the lock; queues `waiter` when nothing is free.
    private func checkout(_ state: inout ConnectionPoolState, waiter: ConnectionPoolState.Waiter?) -> Checkout {
        if state.isShutDown {
            return .failed(PostgresError.client(.poolShutDown, "the connection pool has shut down"))
        }
        if let connection = state.idle.popLast() {
            state.inUse += 1
            return .lent(connection)
        }
        if state.all.count < size {
            let connection = PostgresConnection(
                id: state.all.count + 1, configuration: configuration, threadPool: threadPool, logger: logger
            )
            state.all.append(connection)
            state.inUse += 1
            return .lent(connection)
        }
        guard let waiter else { return .queued }
        if Task.isCancelled { return .failed(CancellationError()) }
        state.waiters.append(waiter)
        return .queued
    }

    /// Takes a connection back: hands it straight to the longest waiter, or keeps it idle.
    func giveBack(_ connection: PostgresConnection) {
        enum Next {
            case handOff(ConnectionPoolState.Waiter)
            case idle
            case drained([CheckedContinuation<Void, Never>])
        }
        let next: Next = state.withLockedValue { state in
            if let waiter = state.waiters.popFirst() { return .handOff(waiter) }
            state.inUse -= 1
            state.idle.append(connection)
            if state.isShutDown, state.inUse == 0 {
                defer { state.drainWaiters.removeAll() }
                return .drained(state.drainWaiters)
            }
            return .idle
        }
        switch next {
        case .handOff(let waiter): waiter.continuation.resume(returning: connection)
        case .idle: break
        case .drained(let shutdowns): shutdowns.forEach { $0.resume() }
        }
    }

    /// Fails waiters whose checkout timeout passed, until nobody waits.
    ///
    /// One task per pool, not one timer per waiter: under load nearly every checkout waits
    /// briefly, and a timer task each would cost a large share of the pool's throughput.
    /// A timeout therefore fires up to a tenth of the timeout (at most 100 ms) late.
    private func startSweepingExpiredWaiters() {
        let interval = max(min(checkoutTimeout / 10, .milliseconds(100)), .milliseconds(1))
        Task { [weak self] in
            while true {
                try? await Task.sleep(for: interval)
                guard let self else { return }
                let (expired, keepSweeping) = self.state.withLockedValue { state in
                    let expired = state.removeExpiredWaiters(now: .now)
                    state.isSweeping = !state.waiters.isEmpty
                    return (expired, state.isSweeping)
                }
                let timeout = PostgresError.client(.poolTimeout, "no connection became free within \(self.checkoutTimeout)")
                expired.forEach { $0.continuation.resume(throwing: timeout) }
                if !keepSweeping { return }
            }
        }
    }

    /// Removes a queued caller and fails it; nothing happens if it was already served.
    func failWaiter(id: Int, with error: any Error) {
        let waiter = state.withLockedValue { $0.removeWaiter(id: id) }
        waiter?.continuation.resume(throwing: error)
    }
}
