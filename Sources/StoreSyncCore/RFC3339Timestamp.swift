public import Foundation

/// RFC 3339 timestamps as StoreSync writes them, `2026-11-22T10:15:30.123Z`, and as it reads
/// them.
///
/// Writing always gives UTC with exactly three fractional digits, so one instant has one
/// spelling (the canonical JSON that signatures cover depends on it). Reading also accepts no
/// fraction, any number of fractional digits (rounded to the millisecond), a lowercase `t`
/// or `z`, and a `±hh:mm` offset. Years 0001–9999 only; leap seconds (`:60`) are rejected
/// because Unix time cannot hold them. Written by hand because `ISO8601DateFormatter` is slow
/// and not `Sendable`.
public enum RFC3339Timestamp {
    /// 0001-01-01T00:00:00.000Z in milliseconds since 1970.
    static let earliestMilliseconds: Int64 = CivilDate(year: 1, month: 1, day: 1).daysSince1970 * 86_400_000
    /// 9999-12-31T23:59:59.999Z in milliseconds since 1970.
    static let latestMilliseconds: Int64 = (CivilDate(year: 9999, month: 12, day: 31).daysSince1970 + 1) * 86_400_000 - 1

    /// The canonical spelling of a date, rounded to the millisecond.
    ///
    /// - Parameter date: The instant to write.
    /// - Returns: `YYYY-MM-DDThh:mm:ss.sssZ`, or `nil` when the date falls outside years
    ///   0001–9999 or is not finite.
    public static func string(from date: Date) -> String? {
        var text = [UInt8]()
        text.reserveCapacity(24)
        guard append(date, to: &text) else { return nil }
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the canonical spelling of a date to UTF-8 text, for writers of JSON that would
    /// otherwise make a string per date only to copy it.
    ///
    /// - Parameters:
    ///   - date: The instant to write, rounded to the millisecond.
    ///   - text: Where the 24 bytes go.
    /// - Returns: `false`, with `text` unchanged, when the date falls outside years 0001–9999
    ///   or is not finite.
    package static func append(_ date: Date, to text: inout [UInt8]) -> Bool {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e12 else { return false }
        let milliseconds = date.millisecondsSince1970
        guard milliseconds >= earliestMilliseconds, milliseconds <= latestMilliseconds else { return false }
        let (wholeSeconds, millisecond) = floorDivide(milliseconds, by: 1000)
        let (days, secondOfDay) = floorDivide(wholeSeconds, by: 86_400)
        let civil = CivilDate(daysSince1970: days)
        // Spelled into 24 bytes on the stack and appended at once: a snapshot writes five dates
        // per purchase, and a digit at a time each paid a division by a divisor the compiler
        // could not see and a capacity check of `text`.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { spelling in
            put(civil.year / 100, at: 0, in: spelling)
            put(civil.year % 100, at: 2, in: spelling)
            spelling[4] = UInt8(ascii: "-")
            put(civil.month, at: 5, in: spelling)
            spelling[7] = UInt8(ascii: "-")
            put(civil.day, at: 8, in: spelling)
            spelling[10] = UInt8(ascii: "T")
            put(secondOfDay / 3600, at: 11, in: spelling)
            spelling[13] = UInt8(ascii: ":")
            put(secondOfDay / 60 % 60, at: 14, in: spelling)
            spelling[16] = UInt8(ascii: ":")
            put(secondOfDay % 60, at: 17, in: spelling)
            spelling[19] = UInt8(ascii: ".")
            spelling[20] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: millisecond / 100)
            put(millisecond % 100, at: 21, in: spelling)
            spelling[23] = UInt8(ascii: "Z")
            text.append(contentsOf: spelling)
        }
        return true
    }

    /// Reads an RFC 3339 timestamp.
    ///
    /// - Parameter text: The timestamp, e.g. `2026-11-22T10:15:30.123Z` or
    ///   `2026-11-22T11:15:30+01:00`.
    /// - Returns: The instant, rounded to the millisecond, or `nil` when the text is not a
    ///   valid timestamp within years 0001–9999.
    public static func date(from text: String) -> Date? {
        var copy = text
        return copy.withUTF8(date(fromUTF8:))
    }

    /// Reads an RFC 3339 timestamp from its UTF-8 bytes, as ``date(from:)`` reads its text:
    /// a restore's reader takes three from each of thousands of records, and a `String` of
    /// one is a heap allocation (24 bytes do not fit a small string).
    ///
    /// - Parameter bytes: The timestamp's bytes.
    /// - Returns: The instant, or `nil` when the bytes are not a valid timestamp.
    public static func date(fromUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        var reader = TimestampReader(bytes: bytes)
        guard let milliseconds = reader.readTimestamp(),
            milliseconds >= earliestMilliseconds, milliseconds <= latestMilliseconds
        else { return nil }
        return Date(millisecondsSince1970: milliseconds)
    }

    private static func floorDivide(_ value: Int64, by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let remainder = value % divisor
        return remainder < 0 ? (value / divisor - 1, remainder + divisor) : (value / divisor, remainder)
    }

    /// Writes `value` (0–99) as two digits at `index`.
    private static func put(_ value: Int64, at index: Int, in spelling: UnsafeMutableBufferPointer<UInt8>) {
        spelling[index] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10)
        spelling[index + 1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
    }
}
