import Foundation

/// Reads an HTTP `Retry-After` value in the three spellings a server may use.
///
/// Apple documents a UNIX time in milliseconds for the App Store Server API's `429`;
/// RFC 9110 allows delay seconds or an HTTP date. A number too large to be a delay in seconds
/// (past the year 1973 as milliseconds) is read as Apple's timestamp.
enum RetryAfter {
    /// Milliseconds since 1970 from here on are timestamps, not delays.
    private static let firstTimestamp: Int64 = 100_000_000_000

    /// The wait the value asks for, never negative.
    ///
    /// - Parameters:
    ///   - value: The header's value, if any.
    ///   - now: The time the answer arrived.
    /// - Returns: The wait, or `nil` when there is no value or it cannot be read.
    static func wait(_ value: String?, now: Date) -> Duration? {
        guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let number = Int64(text) {
            guard number >= 0 else { return nil }
            if number < firstTimestamp { return .seconds(number) }
            return until(Date(timeIntervalSince1970: TimeInterval(number) / 1000), now: now)
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text).map { until($0, now: now) }
    }

    private static func until(_ date: Date, now: Date) -> Duration {
        .milliseconds(Int64(max(0, date.timeIntervalSince(now)) * 1000))
    }
}
