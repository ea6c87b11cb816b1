import Foundation

/// A sliding-window limit: at most `limit` attempts in any `seconds`-long window.
///
/// A pure function of the attempts recorded so far and the time: ``LoginThrottle`` reads the
/// record under a row lock, asks, and writes back what a granted attempt leaves.
struct ThrottleWindow: Sendable, Hashable {
    /// The most attempts in any window.
    let limit: Int
    /// The window's length.
    let seconds: Int

    /// What the limit says about one more attempt.
    enum Decision: Equatable, Sendable {
        /// The attempt may go ahead; `recorded` is what to keep, this attempt included: the
        /// attempts still inside the window, at most `limit` of them.
        case granted(recorded: [Date])
        /// The window is full; the attempt after this many seconds may go ahead.
        case refused(retryAfterSeconds: Int)
    }

    /// Decides one more attempt at `now`.
    ///
    /// - Parameters:
    ///   - recorded: The attempts recorded so far, in any order.
    ///   - now: The attempt's time.
    /// - Returns: Whether it may go ahead, and what to record or how long to wait.
    func decide(recorded: [Date], now: Date) -> Decision {
        guard limit > 0 else { return .refused(retryAfterSeconds: max(1, seconds)) }
        let window = TimeInterval(seconds)
        let recent = recorded.filter { now.timeIntervalSince($0) < window }.sorted()
        guard recent.count >= limit else {
            return .granted(recorded: Array((recent + [now]).suffix(limit)))
        }
        // A place frees when the attempt `limit` places before the end leaves the window.
        let freeing = recent[recent.count - limit]
        return .refused(retryAfterSeconds: max(1, Int((window - now.timeIntervalSince(freeing)).rounded(.up))))
    }

    /// When the newest of `recorded` leaves the window: the record may be deleted after it.
    func expiry(of recorded: [Date]) -> Date {
        (recorded.max() ?? .distantPast).addingTimeInterval(TimeInterval(seconds))
    }
}
