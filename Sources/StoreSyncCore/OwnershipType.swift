/// Whether the account bought the product or receives it through Family Sharing.
public enum OwnershipType: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case purchased
    case familyShared

    /// Orders by raw value, so sorting is stable across platforms.
    ///
    /// - Parameters:
    ///   - lhs: One value.
    ///   - rhs: Another value.
    /// - Returns: Whether `lhs` sorts first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
