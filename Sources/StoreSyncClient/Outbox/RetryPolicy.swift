public import Foundation

/// How long a failed upload waits before its next attempt: exponential backoff, bounded.
///
/// The n-th failure waits `initialDelay × 2ⁿ⁻¹`, never more than `maximumDelay`; a server
/// that answers 429 with `Retry-After` is waited for at least that long. Uploads are never
/// given up for network or server failures: the purchase must reach the server eventually.
public struct RetryPolicy: Sendable, Hashable {
    /// The delay after the first failure, in seconds.
    public var initialDelay: TimeInterval
    /// The longest delay, in seconds.
    public var maximumDelay: TimeInterval

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - initialDelay: Seconds after the first failure; 2 by default.
    ///   - maximumDelay: The cap, in seconds; 10 minutes by default.
    public init(initialDelay: TimeInterval = 2, maximumDelay: TimeInterval = 600) {
        self.initialDelay = max(0, initialDelay)
        self.maximumDelay = max(self.initialDelay, maximumDelay)
    }

    /// The delay after a number of consecutive failures.
    ///
    /// - Parameters:
    ///   - failures: Failed attempts so far, at least 1.
    ///   - retryAfter: The server's `Retry-After`, if it sent one.
    /// - Returns: Seconds to wait.
    public func delay(afterFailures failures: Int, retryAfter: TimeInterval? = nil) -> TimeInterval {
        // 2^30 × any sane initial delay is past every cap; the bound keeps the power finite.
        let exponent = Double(min(max(failures, 1) - 1, 30))
        let backoff = min(maximumDelay, initialDelay * pow(2, exponent))
        return max(backoff, retryAfter ?? 0)
    }
}
