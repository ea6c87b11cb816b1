/// A cursor over the bytes of one RFC 3339 timestamp; every method fails rather than guesses.
struct TimestampReader {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Milliseconds since 1970 (UTC), or `nil` unless all of the bytes form a valid timestamp.
    mutating func readTimestamp() -> Int64? {
        guard let year = number(digits: 4), skip("-"),
            let month = number(digits: 2), skip("-"),
            let day = number(digits: 2), skip("T") || skip("t"),
            let hour = number(digits: 2), skip(":"),
            let minute = number(digits: 2), skip(":"),
            let second = number(digits: 2)
        else { return nil }
        guard year >= 1, (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(month, year: year),
            hour <= 23, minute <= 59, second <= 59
        else { return nil }
        var millisecond: Int64 = 0
        if skip(".") {
            guard let fraction = fractionInMilliseconds() else { return nil }
            millisecond = fraction
        }
        guard let offsetSeconds = zoneOffsetSeconds(), position == bytes.count else { return nil }
        let days = CivilDate(year: year, month: month, day: day).daysSince1970
        let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offsetSeconds
        return seconds * 1000 + millisecond
    }

    private mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard position < bytes.count, bytes[position] == UInt8(ascii: character) else { return false }
        position += 1
        return true
    }

    private func digit(at index: Int) -> Int64? {
        guard index < bytes.count else { return nil }
        let byte = bytes[index]
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        return Int64(byte - UInt8(ascii: "0"))
    }

    private mutating func number(digits count: Int) -> Int64? {
        var value: Int64 = 0
        for _ in 0..<count {
            guard let digit = digit(at: position) else { return nil }
            value = value * 10 + digit
            position += 1
        }
        return value
    }

    /// One or more digits after the point, rounded half up to whole milliseconds (0–1000).
    private mutating func fractionInMilliseconds() -> Int64? {
        var nanoseconds: Int64 = 0
        var scale: Int64 = 100_000_000
        var digitCount = 0
        while let digit = digit(at: position) {
            nanoseconds += digit * scale
            scale /= 10
            digitCount += 1
            position += 1
        }
        guard digitCount > 0 else { return nil }
        return (nanoseconds + 500_000) / 1_000_000
    }

    private mutating func zoneOffsetSeconds() -> Int64? {
        if skip("Z") || skip("z") { return 0 }
        let sign: Int64
        if skip("+") {
            sign = 1
        } else if skip("-") {
            sign = -1
        } else {
            return nil
        }
        guard let hours = number(digits: 2), skip(":"), let minutes = number(digits: 2),
            hours <= 23, minutes <= 59
        else { return nil }
        return sign * (hours * 3_600 + minutes * 60)
    }
}
