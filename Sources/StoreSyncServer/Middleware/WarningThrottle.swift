import NIOConcurrencyHelpers

/// Lets a warning that repeats for one cause through once per interval, saying how many were
/// held back since: while the database is down every request fails the same way, and a line
/// each would bury the logs (and, with JSON logs, queue every request on the log's lock) just
/// when an operator reads them. What each failure counts is kept in a metric instead.
final class WarningThrottle: Sendable {
    private struct Window {
        var lastAdmitted: ContinuousClock.Instant
        var heldBack: Int
    }

    private let interval: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    private let windows = NIOLockedValueBox<[String: Window]>([:])

    /// - Parameters:
    ///   - interval: The least time between two lines of one cause.
    ///   - now: The clock; tests drive it.
    init(interval: Duration = .seconds(10), now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.interval = interval
        self.now = now
    }

    /// Whether a warning of `cause` may be written now.
    ///
    /// - Parameter cause: What the warning is about (its message, say).
    /// - Returns: How many warnings of this cause were held back since the last one written,
    ///   when this one may be written; `nil` when it is to be held back.
    func admit(_ cause: String) -> Int? {
        let now = now()
        return windows.withLockedValue { windows in
            guard var window = windows[cause] else {
                windows[cause] = Window(lastAdmitted: now, heldBack: 0)
                return 0
            }
            guard now - window.lastAdmitted >= interval else {
                window.heldBack += 1
                windows[cause] = window
                return nil
            }
            windows[cause] = Window(lastAdmitted: now, heldBack: 0)
            return window.heldBack
        }
    }
}
