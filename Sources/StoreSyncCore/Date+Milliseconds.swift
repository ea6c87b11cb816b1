public import Foundation

extension Date {
    /// Whole milliseconds since 1970, rounded to the nearest: the precision Apple signs,
    /// PostgreSQL stores here, and the canonical JSON writes.
    ///
    /// A date too far from 1970 for 64-bit milliseconds saturates at `Int64.min`/`Int64.max`,
    /// and a NaN date reads as 0, rather than trapping on a value from outside.
    public var millisecondsSince1970: Int64 {
        let milliseconds = (timeIntervalSince1970 * 1000).rounded()
        guard milliseconds.isFinite else { return milliseconds.isNaN ? 0 : (milliseconds < 0 ? .min : .max) }
        // Int64.max is not exactly representable as a Double; 2^63 is the first value past it.
        guard milliseconds < 9_223_372_036_854_775_808.0 else { return .max }
        guard milliseconds >= -9_223_372_036_854_775_808.0 else { return .min }
        return Int64(milliseconds)
    }

    /// Creates a date from whole milliseconds since 1970.
    ///
    /// - Parameter millisecondsSince1970: Milliseconds since 00:00:00 UTC on 1 January 1970.
    public init(millisecondsSince1970: Int64) {
        self.init(timeIntervalSince1970: Double(millisecondsSince1970) / 1000)
    }

    /// This date rounded to whole milliseconds, so a value survives every round trip
    /// (JSON, PostgreSQL, Apple's payloads) unchanged.
    public var roundedToMilliseconds: Date {
        Date(millisecondsSince1970: millisecondsSince1970)
    }
}
