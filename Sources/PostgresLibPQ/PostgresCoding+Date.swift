public import Foundation

extension Date: PostgresEncodable, PostgresDecodable {
    /// `timestamptz`.
    public static var postgresType: PostgresDataType { .timestamptz }

    /// Seconds from 1970 to PostgreSQL's epoch, 2000-01-01 00:00:00 UTC.
    static let postgresEpochOffset: Int64 = 946_684_800
    /// What PostgreSQL stores for `'infinity'` and `'-infinity'`.
    static let postgresInfinity = Int64.max, postgresNegativeInfinity = Int64.min

    /// Microseconds since 2000-01-01 UTC, big-endian; a non-finite date becomes ±infinity.
    ///
    /// Whole seconds and the fraction are converted apart, so the fraction keeps its precision
    /// even for dates centuries away (millisecond-exact round trips).
    ///
    /// - Parameter buffer: The buffer to append to.
    public func encode(into buffer: inout [UInt8]) {
        buffer.appendBigEndian(postgresMicroseconds)
    }

    var postgresMicroseconds: Int64 {
        let interval = timeIntervalSince1970
        // Beyond ±9e12 s (about 285,000 years) PostgreSQL has no timestamp anyway.
        guard interval.isFinite, abs(interval) < 9e12 else {
            return interval > 0 ? Self.postgresInfinity : Self.postgresNegativeInfinity
        }
        let seconds = interval.rounded(.down)
        let micros = ((interval - seconds) * 1_000_000).rounded()
        return (Int64(seconds) - Self.postgresEpochOffset) * 1_000_000 + Int64(micros)
    }

    /// Decodes `timestamptz`, `timestamp` (read as UTC) or `date` (midnight UTC).
    ///
    /// PostgreSQL's `'infinity'` and `'-infinity'` decode as `Date.distantFuture` and
    /// `Date.distantPast`.
    ///
    /// - Parameters:
    ///   - bytes: Microseconds (or days, for `date`) since 2000-01-01.
    ///   - type: `timestamptz`, `timestamp` or `date`.
    /// - Throws: ``PostgresDecodingError/Reason`` for another type or length.
    public init(postgresBytes bytes: UnsafeRawBufferPointer, type: PostgresDataType) throws {
        switch type {
        case .timestamptz, .timestamp:
            try bytes.requireCount(8, for: type)
            let micros = bytes.readBigEndian(at: 0, as: Int64.self)
            switch micros {
            case Self.postgresInfinity: self = .distantFuture
            case Self.postgresNegativeInfinity: self = .distantPast
            default:
                // Split like the encoder, so whole seconds stay exact.
                let (seconds, remainder) = micros.quotientAndRemainder(dividingBy: 1_000_000)
                let interval = Double(seconds + Self.postgresEpochOffset) + Double(remainder) / 1_000_000
                self = Date(timeIntervalSince1970: interval)
            }
        case .date:
            try bytes.requireCount(4, for: type)
            let days = bytes.readBigEndian(at: 0, as: Int32.self)
            switch days {
            case .max: self = .distantFuture
            case .min: self = .distantPast
            default: self = Date(timeIntervalSince1970: Double(Int64(days) * 86_400 + Self.postgresEpochOffset))
            }
        default:
            throw PostgresDecodingError.Reason.typeMismatch
        }
    }
}
