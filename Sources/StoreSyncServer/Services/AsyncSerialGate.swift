import NIOConcurrencyHelpers

/// Lets one task at a time through a section that awaits, in arrival order.
///
/// A lock cannot be held across an `await`, and an actor lets a second call in while the first
/// one awaits; a catalog reload needs neither: two reloads that overlap may publish the older
/// read last, so they must take turns. Package-wide, because the stress test serialises its
/// ownership moves the same way.
package final class AsyncSerialGate: Sendable {
    private struct State {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = NIOLockedValueBox(State())

    package init() {}

    /// Runs `body` once every earlier caller's `body` has finished.
    package func run<Result: Sendable>(_ body: () async throws -> Result) async rethrows -> Result {
        await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let admitted = state.withLockedValue { state in
                if state.busy {
                    state.waiting.append(continuation)
                    return false
                }
                state.busy = true
                return true
            }
            if admitted { continuation.resume() }
        }
    }

    private func leave() {
        // The next caller inherits `busy`, so nobody can slip in between.
        let next = state.withLockedValue { state in
            if state.waiting.isEmpty {
                state.busy = false
                return nil as CheckedContinuation<Void, Never>?
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
