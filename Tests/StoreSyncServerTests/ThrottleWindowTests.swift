import Foundation
@testable import StoreSyncServer
import Testing

/// The sliding window the login throttle decides with: at most `limit` attempts in any window.
@Suite struct ThrottleWindowTests {
    private let window = ThrottleWindow(limit: 3, seconds: 60)
    private let start = Date(timeIntervalSince1970: 1_000_000)

    @Test func attemptsUpToTheLimitAreGrantedAndRecorded() {
        var recorded: [Date] = []
        for second in 0..<3 {
            let now = start.addingTimeInterval(TimeInterval(second))
            guard case .granted(let kept) = window.decide(recorded: recorded, now: now) else {
                Issue.record("attempt \(second) was refused")
                return
            }
            recorded = kept
        }
        #expect(recorded.count == 3)
        #expect(window.decide(recorded: recorded, now: start.addingTimeInterval(3)) == .refused(retryAfterSeconds: 57))
    }

    @Test func aPlaceFreesWhenTheOldestAttemptLeavesTheWindow() {
        let recorded = [0, 10, 20].map { start.addingTimeInterval(TimeInterval($0)) }
        #expect(window.decide(recorded: recorded, now: start.addingTimeInterval(59.5)) == .refused(retryAfterSeconds: 1))
        let later = start.addingTimeInterval(60)
        #expect(window.decide(recorded: recorded, now: later) == .granted(recorded: Array(recorded.dropFirst()) + [later]))
    }

    @Test func theRecordNeverHoldsMoreThanTheLimit() {
        let stale = (0..<50).map { start.addingTimeInterval(TimeInterval($0)) }
        let now = start.addingTimeInterval(1_000)
        #expect(window.decide(recorded: stale, now: now) == .granted(recorded: [now]))
        #expect(window.expiry(of: [now]) == now.addingTimeInterval(60))
    }

    @Test func aLimitOfZeroRefusesEverything() {
        let closed = ThrottleWindow(limit: 0, seconds: 60)
        #expect(closed.decide(recorded: [], now: start) == .refused(retryAfterSeconds: 60))
    }
}
