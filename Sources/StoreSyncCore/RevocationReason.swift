/// Why Apple revoked a transaction (`revocationReason` in StoreKit 2).
///
/// A struct over the raw integer, not an enum, so a value Apple adds later is kept
/// rather than rejected.
public struct RevocationReason: RawRepresentable, Sendable, Hashable, Codable, Comparable {
    /// Apple's number for the reason.
    public var rawValue: Int

    /// Wraps Apple's number, known or not.
    ///
    /// - Parameter rawValue: Apple's `revocationReason`.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Refunded for another reason, e.g. an accidental purchase.
    public static let other = RevocationReason(rawValue: 0)
    /// Refunded because of an actual or perceived issue within the app.
    public static let appIssue = RevocationReason(rawValue: 1)

    /// Decodes Apple's bare integer.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when the value is not an integer.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    /// Encodes the bare integer.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: An error of the encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Orders by raw value, so sorting is stable across platforms.
    ///
    /// - Parameters:
    ///   - lhs: One value.
    ///   - rhs: Another value.
    /// - Returns: Whether `lhs` sorts first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
