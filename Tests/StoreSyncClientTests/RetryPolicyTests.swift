import Foundation
import StoreSyncClient
import Testing

@Suite struct RetryPolicyTests {
    @Test(arguments: [(1, 2.0), (2, 4.0), (3, 8.0), (8, 256.0), (9, 512.0), (10, 600.0), (1_000_000, 600.0)])
    func delayDoublesFromTheInitialDelayUpToTheCap(failures: Int, expected: TimeInterval) {
        #expect(RetryPolicy().delay(afterFailures: failures) == expected)
    }

    @Test func serversRetryAfterIsWaitedForAtLeast() {
        #expect(RetryPolicy().delay(afterFailures: 1, retryAfter: 30) == 30)
        #expect(RetryPolicy().delay(afterFailures: 5, retryAfter: 1) == 32)
    }

    @Test func nonsensicalSettingsAreClamped() {
        let policy = RetryPolicy(initialDelay: -5, maximumDelay: -1)
        #expect(policy.delay(afterFailures: 0) == 0)
        #expect(RetryPolicy(initialDelay: 10, maximumDelay: 1).delay(afterFailures: 3) == 10)
    }
}
