public import Foundation

/// The deterministic JSON that StoreSync's signatures cover.
///
/// Equal values give identical bytes on every platform: object keys are sorted by their UTF-8
/// bytes (not by locale, case or `String`'s Unicode ordering), there is no whitespace, dates
/// are RFC 3339 UTC with milliseconds, `Data` is base64, integers are written as integers, and
/// strings are escaped minimally — `"` and `\`, `\b \f \n \r \t` for those controls, `\u00xx`
/// (lowercase hex) for the other controls below U+0020, every other character as its UTF-8
/// bytes. Floating-point numbers are rejected: their text form differs between platforms.
/// Optional properties that are `nil` are omitted, as synthesized `Codable` does.
public enum CanonicalJSON {
    /// Encodes a value canonically.
    ///
    /// - Parameter value: The value.
    /// - Returns: The canonical UTF-8 JSON bytes.
    /// - Throws: `EncodingError.invalidValue` for a floating-point number, a date outside
    ///   years 0001–9999, or an error the value's own `encode(to:)` throws.
    public static func encode(_ value: some Encodable) throws -> Data {
        let root = try CanonicalEncoder().box(value)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024)
        root.write(to: &bytes)
        return Data(bytes)
    }
}
