/// Why Apple revoked a transaction (`revocationReason` in StoreKit 2).
///
/// A struct over the raw integer, not an enum, so a value Apple adds later is kept
/// rather than rejected.
public struct RevocationReason: RawRepresentable, Sendable, Hashable, Codable, Comparable {
    public var rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Refunded for another reason, e.g. an accidental purchase.
    public static let other = RevocationReason(rawValue: 0)
    /// Refunded because of an actual or perceived issue within the app.
    public static let appIssue = RevocationReason(rawValue: 1)

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
