import NIOConcurrencyHelpers

/// Opens once the application's start-up steps — migrations, then the catalog — are done:
/// background services that read the schema wait for it, since they start beside the server
/// rather than after it.
final class StartupGate: Sendable {
    private enum State {
        case closed([UInt64: CheckedContinuation<Void, any Error>], next: UInt64)
        case open
    }

    private let state = NIOLockedValueBox(State.closed([:], next: 0))

    /// Opens the gate for good, releasing every waiter.
    func open() {
        let waiters = state.withLockedValue { state -> [CheckedContinuation<Void, any Error>] in
            guard case .closed(let waiters, _) = state else { return [] }
            state = .open
            return Array(waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the gate is open.
    ///
    /// - Throws: `CancellationError` when the task is cancelled first (a shutdown before the
    ///   start-up steps finished).
    func wait() async throws {
        let id = state.withLockedValue { state -> UInt64? in
            guard case .closed(let waiters, let next) = state else { return nil }
            state = .closed(waiters, next: next + 1)
            return next
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let admitted = state.withLockedValue { state -> Bool in
                    guard case .closed(var waiters, let next) = state else { return true }
                    if Task.isCancelled { return true }
                    waiters[id] = continuation
                    state = .closed(waiters, next: next)
                    return false
                }
                if admitted { continuation.resume() }
            }
            try Task.checkCancellation()
        } onCancel: {
            let waiter = state.withLockedValue { state -> CheckedContinuation<Void, any Error>? in
                guard case .closed(var waiters, let next) = state else { return nil }
                let waiter = waiters.removeValue(forKey: id)
                state = .closed(waiters, next: next)
                return waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
