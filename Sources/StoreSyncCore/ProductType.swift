/// The four kinds of in-app purchase the App Store sells.
public enum ProductType: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    /// Used up once bought (coins); never an entitlement, kept for history.
    case consumable
    /// Bought once, owned forever unless refunded.
    case nonConsumable
    /// Renews until cancelled; Apple states each period's end in `expiresDate`.
    case autoRenewable
    /// A fixed period that Apple neither renews nor syncs; the catalog gives its length.
    case nonRenewing

    /// Orders by raw value, so sorting is stable across platforms.
    ///
    /// - Parameters:
    ///   - lhs: One value.
    ///   - rhs: Another value.
    /// - Returns: Whether `lhs` sorts first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
