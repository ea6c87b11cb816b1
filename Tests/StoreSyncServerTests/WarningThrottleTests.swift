import NIOConcurrencyHelpers
@testable import StoreSyncServer
import Testing

/// One warning per cause per interval, each saying how many it stands for.
@Suite struct WarningThrottleTests {
    @Test func aRepeatedWarningIsWrittenOncePerIntervalSayingHowManyWereHeldBack() {
        let clock = NIOLockedValueBox(ContinuousClock.now)
        let throttle = WarningThrottle(interval: .seconds(10), now: { clock.withLockedValue { $0 } })

        #expect(throttle.admit("database unavailable") == 0, "the first is written")
        for _ in 0..<199 { #expect(throttle.admit("database unavailable") == nil) }
        #expect(throttle.admit("database statement timed out") == 0, "another cause has its own interval")

        clock.withLockedValue { $0 += .seconds(9) }
        #expect(throttle.admit("database unavailable") == nil)
        clock.withLockedValue { $0 += .seconds(1) }
        #expect(throttle.admit("database unavailable") == 200, "written again, for the 200 held back")
        #expect(throttle.admit("database unavailable") == nil)
    }
}
