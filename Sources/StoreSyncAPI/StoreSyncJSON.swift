public import Foundation
import StoreSyncCore

/// The JSON coders of StoreSync's HTTP API, shared by server and client.
///
/// Dates travel as RFC 3339 with milliseconds in UTC (`2026-11-22T10:15:30.123Z`); the decoder
/// also accepts dates without fractional seconds and with offsets, and names the offending
/// field when a date is garbage.
public enum StoreSyncJSON {
    /// A JSON encoder with sorted keys, unescaped slashes and RFC 3339 millisecond dates.
    ///
    /// - Returns: A new encoder; configure it further if needed.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom(encodeDate)
        return encoder
    }

    /// A JSON decoder that reads RFC 3339 dates.
    ///
    /// - Returns: A new decoder.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom(decodeDate)
        return decoder
    }

    /// Writes one date as StoreSync's RFC 3339 string.
    ///
    /// - Parameters:
    ///   - date: The date.
    ///   - encoder: The encoder to write into.
    /// - Throws: `EncodingError.invalidValue` for a date outside years 0001–9999.
    public static func encodeDate(_ date: Date, to encoder: any Encoder) throws {
        guard let text = RFC3339Timestamp.string(from: date) else {
            throw EncodingError.invalidValue(date, .init(
                codingPath: encoder.codingPath,
                debugDescription: "\(encoder.codingPath.fieldPath(topLevel: "value")) is outside the years 0001–9999 RFC 3339 can write"))
        }
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    /// Reads one RFC 3339 date.
    ///
    /// - Parameter decoder: The decoder positioned at the date.
    /// - Returns: The date, rounded to the millisecond.
    /// - Throws: `DecodingError` naming the field when the value is not a string or not a
    ///   valid RFC 3339 date.
    public static func decodeDate(from decoder: any Decoder) throws -> Date {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let date = RFC3339Timestamp.date(from: text) else {
            let shown = text.count > 64 ? String(text.prefix(64)) + "…" : text
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "\(decoder.codingPath.fieldPath(topLevel: "value")) must be an RFC 3339 date such as "
                    + "2026-11-22T10:15:30.123Z, not \"\(shown)\"")
        }
        return date
    }
}
