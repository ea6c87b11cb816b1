import Foundation
import NIOConcurrencyHelpers

/// Limits sign-in attempts per email (failures) and per client address (all attempts) in a
/// sliding window, per server instance.
final class LoginThrottle: Sendable {
    private let limits: LoginLimits
    private let attempts = NIOLockedValueBox<[String: [Date]]>([:])
    /// Bounds memory under a flood of distinct keys.
    private let maxKeys = 100_000

    init(limits: LoginLimits) {
        self.limits = limits
    }

    /// Seconds to wait before another attempt is allowed, or `nil` when one may go ahead.
    func retryAfter(email: String, address: String?, now: Date) -> Int? {
        attempts.withLockedValue { state in
            let waits = [
                wait(for: "email:\(email)", limit: limits.failuresPerEmail, in: &state, now: now),
                address.flatMap { wait(for: "address:\($0)", limit: limits.attemptsPerAddress, in: &state, now: now) },
            ]
            return waits.compactMap { $0 }.max()
        }
    }

    /// Counts one attempt from an address.
    func recordAttempt(address: String?, now: Date) {
        guard let address else { return }
        record("address:\(address)", now: now)
    }

    /// Counts one failed attempt for an email.
    func recordFailure(email: String, now: Date) {
        record("email:\(email)", now: now)
    }

    /// A successful sign-in forgets the email's failures.
    func reset(email: String) {
        attempts.withLockedValue { $0["email:\(email)"] = nil }
    }

    private func record(_ key: String, now: Date) {
        attempts.withLockedValue { state in
            if state.count >= maxKeys, state[key] == nil { makeRoom(&state, now: now) }
            state[key, default: []].append(now)
        }
    }

    private func wait(for key: String, limit: Int, in state: inout [String: [Date]], now: Date) -> Int? {
        let recent = (state[key] ?? []).filter { now.timeIntervalSince($0) < TimeInterval(limits.windowSeconds) }
        state[key] = recent.isEmpty ? nil : recent
        guard recent.count >= limit, let oldest = recent.first else { return nil }
        return max(1, Int((TimeInterval(limits.windowSeconds) - now.timeIntervalSince(oldest)).rounded(.up)))
    }

    /// Drops keys whose attempts all left the window; if the table is still full (a flood
    /// of distinct keys inside one window), drops a quarter of it rather than grow without bound.
    private func makeRoom(_ state: inout [String: [Date]], now: Date) {
        state = state.filter { _, dates in dates.last.map { now.timeIntervalSince($0) < TimeInterval(limits.windowSeconds) } ?? false }
        while state.count >= maxKeys * 3 / 4 { state.remove(at: state.startIndex) }
    }
}
