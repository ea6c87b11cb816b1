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
        let timeout = checkoutTimeout
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            self?.failWaiter(id: id, with: PostgresError.client(.poolTimeout, "no connection became free within \(timeout)"))
        }
        defer { timer.cancel() }
        let connection = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<PostgresConnection, any Error>) in
                let waiter = ConnectionPoolState.Waiter(id: id, continuation: continuation)
                switch state.withLockedValue({ checkout(&$0, waiter: waiter) }) {
                case .lent(let connection): continuation.resume(returning: connection)
                case .failed(let error): continuation.resume(throwing: error)
                case .queued: break
                }
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

    /// Removes a queued caller and fails it; nothing happens if it was already served.
    func failWaiter(id: Int, with error: any Error) {
        let waiter = state.withLockedValue { $0.removeWaiter(id: id) }
        waiter?.continuation.resume(throwing: error)
    }
}
