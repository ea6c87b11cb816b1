/// How Apple revoked a transaction (`revocationType`).
///
/// A struct over Apple's raw value rather than an enum, so a value Apple adds later is
/// kept and passed on instead of failing the whole payload.
public struct RevocationType: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// Apple's spelling of the value.
    public var rawValue: String

    /// Wraps Apple's spelling, known or not.
    ///
    /// - Parameter rawValue: The value as it appears in the signed JSON.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Wraps a literal spelling, for tests and constants.
    ///
    /// - Parameter value: The value as it appears in the signed JSON.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Decodes the bare JSON string.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when the value is not a string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
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

extension RevocationType {
    /// A full refund.
    public static let refundFull: Self = "REFUND_FULL"
    /// A partial refund.
    public static let refundProrated: Self = "REFUND_PRORATED"
    /// Family Sharing access was withdrawn.
    public static let familyRevoke: Self = "FAMILY_REVOKE"
}
