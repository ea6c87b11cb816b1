public import Foundation
import NIOConcurrencyHelpers

/// A clock tests move by hand: the server and clients read time from it, so expiry, grace
/// periods and offline validity are tested without waiting.
public final class TestClock: Sendable {
    private let current: NIOLockedValueBox<Date>

    /// Starts at `start`, rounded to whole milliseconds.
    ///
    /// - Parameter start: The first instant; now by default.
    public init(start: Date = Date()) {
        current = NIOLockedValueBox(start.roundedToMillisecondsForTests)
    }

    /// The clock's time.
    public func now() -> Date { current.withLockedValue { $0 } }

    /// Moves the clock forward.
    ///
    /// - Parameter interval: Seconds to add.
    public func advance(by interval: TimeInterval) {
        current.withLockedValue { $0 = $0.addingTimeInterval(interval) }
    }

    /// Sets the clock.
    ///
    /// - Parameter date: The new time.
    public func set(_ date: Date) {
        current.withLockedValue { $0 = date }
    }
}

extension Date {
    fileprivate var roundedToMillisecondsForTests: Date {
        Date(timeIntervalSince1970: (timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
