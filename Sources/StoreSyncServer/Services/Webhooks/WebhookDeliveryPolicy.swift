public import Foundation

/// When webhook deliveries are attempted and given up (DESIGN §4: exponential backoff, the
/// first retry within 5 s, capped at an hour, for 72 hours), and how long one attempt may take.
///
/// The defaults are the contract; tests shorten the waits they cannot move with their clock.
public struct WebhookDeliveryPolicy: Sendable, Hashable {
    /// The wait after the first failed attempt; each later one doubles it.
    public var firstRetryDelay: TimeInterval = 2
    /// The longest wait between attempts.
    public var maximumRetryDelay: TimeInterval = 3_600
    /// How long a delivery is retried, counted from when it started waiting; then it fails.
    public var retryPeriod: TimeInterval = 72 * 3_600
    /// The longest one attempt may take, connecting and answering included.
    public var requestTimeout: TimeInterval = 10
    /// How often a server looks for due deliveries when no notification wakes it.
    public var pollInterval: TimeInterval = 1
    /// The most deliveries one server sends at once (each of a different account).
    public var concurrentDeliveries = 16

    /// The default policy.
    public init() {}

    /// The wait before the next attempt after `attempts` failed ones: the first retry delay,
    /// doubled for each further failure, at most the maximum.
    ///
    /// - Parameter attempts: Failed attempts so far (1 after the first).
    /// - Returns: Seconds to wait.
    public func retryDelay(afterAttempts attempts: Int) -> TimeInterval {
        let doublings = Double(min(max(attempts - 1, 0), 62))
        return min(maximumRetryDelay, firstRetryDelay * pow(2, doublings))
    }

    /// Whether a delivery waiting since `pendingSince` is given up when an attempt fails at `now`.
    ///
    /// - Parameters:
    ///   - pendingSince: When it started waiting.
    ///   - now: When the attempt failed.
    /// - Returns: `true` once the retry period has passed.
    public func givesUp(pendingSince: Date, at now: Date) -> Bool {
        now.timeIntervalSince(pendingSince) >= retryPeriod
    }

    /// How long a claimed delivery is kept from other servers: long enough for its attempt to
    /// end, short enough that a server that died mid-attempt does not hold it for long.
    var claimLease: TimeInterval { 3 * requestTimeout }
}
