/// The kind of an in-app purchase: one of the four the App Store sells today, or a kind Apple
/// adds later, kept as Apple spelled it.
///
/// Apple's vocabulary grows (a new `type` in a signed transaction); a verified transaction of a
/// kind StoreSync does not know is stored and passed on with its raw value rather than refused,
/// and the catalog decides what it grants (``CatalogProduct/describes(_:)``). A catalog itself
/// only ever defines the four known kinds (``isKnown``).
public struct ProductType: RawRepresentable, Sendable, Hashable, Codable, CaseIterable, Comparable,
    CustomStringConvertible
{
    /// StoreSync's name of a known kind (`nonConsumable`), or Apple's spelling of one it does
    /// not know (`Future Type`).
    public let rawValue: String

    /// Wraps a kind's name, known or not.
    ///
    /// - Parameter rawValue: StoreSync's name of the kind, or Apple's spelling of a new one.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Used up once bought (coins); never an entitlement, kept for history.
    public static let consumable = ProductType(rawValue: "consumable")
    /// Bought once, owned forever unless refunded.
    public static let nonConsumable = ProductType(rawValue: "nonConsumable")
    /// Renews until cancelled; Apple states each period's end in `expiresDate`.
    public static let autoRenewable = ProductType(rawValue: "autoRenewable")
    /// A fixed period that Apple neither renews nor syncs; the catalog gives its length.
    public static let nonRenewing = ProductType(rawValue: "nonRenewing")

    /// A purchase read from a legacy app receipt whose product the catalog does not define (a
    /// product retired from it, say): a receipt does not state the kind, so it is kept as this
    /// one, grants nothing, and the catalog decides once it defines the product, as for a kind
    /// Apple added (``CatalogProduct/describes(_:)``).
    public static let unstated = ProductType(rawValue: "unstated")

    /// The four kinds StoreSync knows: the only ones a catalog may define.
    public static let allCases: [ProductType] = [.consumable, .nonConsumable, .autoRenewable, .nonRenewing]

    /// Whether StoreSync knows this kind (one of ``allCases``).
    public var isKnown: Bool { Self.allCases.contains(self) }

    /// The raw value.
    public var description: String { rawValue }

    /// Orders by the UTF-8 bytes of the raw value, so sorting is stable across platforms.
    ///
    /// - Parameters:
    ///   - lhs: One value.
    ///   - rhs: Another value.
    /// - Returns: Whether `lhs` sorts first.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue.compareUTF8(rhs.rawValue) < 0 }
}
