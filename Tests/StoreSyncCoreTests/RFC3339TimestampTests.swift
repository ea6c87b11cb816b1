import Foundation
import PropertyBased
import StoreSyncCore
import Testing

@Suite struct RFC3339TimestampTests {
    @Test(arguments: [
        ("2026-11-22T10:15:30.123Z", 1_795_342_530_123 as Int64),
        ("2026-11-22T10:15:30Z", 1_795_342_530_000),
        ("2026-11-22t10:15:30.123z", 1_795_342_530_123),
        ("2026-11-22T11:15:30.123+01:00", 1_795_342_530_123),
        ("2026-11-22T05:45:30.123-04:30", 1_795_342_530_123),
        ("2026-11-22T10:15:30.1Z", 1_795_342_530_100),
        ("2026-11-22T10:15:30.1234Z", 1_795_342_530_123),
        ("2026-11-22T10:15:30.1235Z", 1_795_342_530_124),
        ("2026-11-22T10:15:30.9999Z", 1_795_342_531_000),
        ("2026-11-22T10:15:30.123456789123Z", 1_795_342_530_123),
        ("1970-01-01T00:00:00.000Z", 0),
        ("1969-12-31T23:59:59.999Z", -1),
        ("2024-02-29T00:00:00Z", 1_709_164_800_000),
        ("2000-02-29T00:00:00Z", 951_782_400_000),
        ("0001-01-01T00:00:00.000Z", -62_135_596_800_000),
        ("9999-12-31T23:59:59.999Z", 253_402_300_799_999),
    ])
    func parsesValidTimestamps(text: String, milliseconds: Int64) {
        #expect(RFC3339Timestamp.date(from: text)?.millisecondsSince1970 == milliseconds)
    }

    @Test(arguments: [
        "", "garbage", "2026-11-22", "2026-11-22T10:15:30", "2026-11-22 10:15:30Z", "2026-13-01T00:00:00Z",
        "2026-00-01T00:00:00Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
        "2026-11-22T24:00:00Z", "2026-11-22T10:60:00Z", "2026-11-22T10:15:60Z", "2026-11-22T10:15:30.Z",
        "2026-11-22T10:15:30+0100", "2026-11-22T10:15:30+24:00", "2026-11-22T10:15:30Z ", " 2026-11-22T10:15:30Z",
        "0000-01-01T00:00:00Z", "0001-01-01T00:00:00+00:01", "+2026-11-22T10:15:30Z", "2026-1-22T10:15:30Z",
        "２０２６-11-22T10:15:30Z",
    ])
    func rejectsGarbage(text: String) {
        #expect(RFC3339Timestamp.date(from: text) == nil)
    }

    @Test(arguments: [
        (1_795_342_530_123 as Int64, "2026-11-22T10:15:30.123Z"),
        (0, "1970-01-01T00:00:00.000Z"),
        (-1, "1969-12-31T23:59:59.999Z"),
        (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
        (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    ])
    func writesCanonicalForm(milliseconds: Int64, text: String) {
        #expect(RFC3339Timestamp.string(from: Date(millisecondsSince1970: milliseconds)) == text)
    }

    /// Seconds since 1970 rather than dates: Foundation's own `Date.description`, which the
    /// test runner uses to name arguments, traps on some of these.
    @Test(arguments: [Date.distantPast.timeIntervalSince1970, -62_135_596_800.001, 253_402_300_800, .nan, .infinity, -.infinity, 1e300])
    func refusesDatesOutsideTheWritableYears(secondsSince1970: Double) {
        #expect(RFC3339Timestamp.string(from: Date(timeIntervalSince1970: secondsSince1970)) == nil)
        var text = Array("kept".utf8)
        #expect(!RFC3339Timestamp.append(Date(timeIntervalSince1970: secondsSince1970), to: &text))
        #expect(text == Array("kept".utf8))
    }

    @Test func appendsTheSameSpellingAfterWhatIsThere() {
        var text = Array("at ".utf8)
        let date = Date(millisecondsSince1970: 1_795_000_000_123)
        #expect(RFC3339Timestamp.append(date, to: &text))
        #expect(String(decoding: text, as: UTF8.self) == "at " + RFC3339Timestamp.string(from: date)!)
    }

    @Test func writesTheFoundationExtremesThatFallInRange() {
        #expect(RFC3339Timestamp.string(from: .distantFuture) == "4001-01-01T00:00:00.000Z")
    }

    @Test func roundTripsEveryMillisecondInRange() async {
        await propertyCheck(count: 1000, input: Gen.int64(in: -62_135_596_800_000...253_402_300_799_999)) { milliseconds in
            let date = Date(millisecondsSince1970: milliseconds)
            let text = RFC3339Timestamp.string(from: date)
            #expect(text.flatMap(RFC3339Timestamp.date(from:)) == date)
        }
    }

    @Test func agreesWithFoundationsFormatter() async {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        await propertyCheck(count: 500, input: Gen.int64(in: 0...4_102_444_800_000)) { milliseconds in
            let date = Date(millisecondsSince1970: milliseconds)
            #expect(RFC3339Timestamp.string(from: date) == formatter.string(from: date))
        }
    }

    @Test func outOfRangeDatesSaturateInsteadOfTrapping() {
        #expect(Date(timeIntervalSince1970: 1e300).millisecondsSince1970 == .max)
        #expect(Date(timeIntervalSince1970: -1e300).millisecondsSince1970 == .min)
        #expect(Date(timeIntervalSince1970: .nan).millisecondsSince1970 == 0)
    }
}
