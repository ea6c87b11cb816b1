/// Whether the account bought the product or receives it through Family Sharing.
public enum OwnershipType: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case purchased
    case familyShared

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
