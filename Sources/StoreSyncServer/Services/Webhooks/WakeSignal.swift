import NIOConcurrencyHelpers

/// Lets one loop sleep until a deadline or until someone wakes it, whichever comes first: how a
/// delivery loop waits between polls and still starts at once when a notification arrives.
///
/// A wake while the loop is busy is kept, so the next pause returns at once; several wakes
/// before a pause count as one.
final class WakeSignal: Sendable {
    private struct State {
        var woken = false
        var nap: Task<Void, Never>?
    }

    private let state = NIOLockedValueBox(State())

    /// Sleeps for `seconds`, or less when woken (or when the calling task is cancelled).
    func pause(for seconds: Double) async {
        let nap = Task<Void, Never> { try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000))) }
        let alreadyWoken = state.withLockedValue { state in
            if state.woken {
                state.woken = false
                return true
            }
            state.nap = nap
            return false
        }
        if alreadyWoken { nap.cancel() }
        await withTaskCancellationHandler {
            await nap.value
        } onCancel: {
            nap.cancel()
        }
        state.withLockedValue { $0.nap = nil }
    }

    /// Ends the current pause, or the next one if the loop is not pausing.
    func wake() {
        state.withLockedValue { state in
            if let nap = state.nap {
                nap.cancel()
            } else {
                state.woken = true
            }
        }
    }
}
