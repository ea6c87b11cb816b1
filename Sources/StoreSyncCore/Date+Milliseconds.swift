public import Foundation

extension Date {
    /// Whole milliseconds since 1970, rounded to the nearest: the precision Apple signs,
    /// PostgreSQL stores here, and the canonical JSON writes.
    public var millisecondsSince1970: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
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
