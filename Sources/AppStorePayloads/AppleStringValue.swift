/// A value Apple spells as a string in signed JSON, kept as a struct over the raw text rather
/// than an enum, so a value Apple adds later is kept and passed on instead of failing the
/// whole payload.
///
/// Conforming types declare `rawValue` and `init(rawValue:)`; JSON coding as a bare string,
/// string literals and `description` come from here.
public protocol AppleStringValue: RawRepresentable<String>, Sendable, Hashable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// Wraps Apple's spelling, known or not.
    ///
    /// - Parameter rawValue: The value as it appears in the signed JSON.
    init(rawValue: String)
}

extension AppleStringValue {
    /// Wraps a literal spelling, for tests and constants.
    ///
    /// - Parameter value: The value as it appears in the signed JSON.
    public init(stringLiteral value: String) { self.init(rawValue: value) }

    /// Decodes the bare JSON string.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when the value is not a string.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// Encodes the bare JSON string.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: `EncodingError` from the encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Apple's spelling.
    public var description: String { rawValue }
}
