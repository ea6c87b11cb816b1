public import StoreSyncCore

/// The product type as Apple spells it in a signed transaction (`type`).
public struct AppStoreProductType: AppleStringValue {
    /// Apple's spelling of the value.
    public var rawValue: String

    /// Wraps Apple's spelling, known or not.
    ///
    /// - Parameter rawValue: The value as it appears in the signed JSON.
    public init(rawValue: String) { self.rawValue = rawValue }
}

extension AppStoreProductType {
    /// `Auto-Renewable Subscription`.
    public static let autoRenewable: Self = "Auto-Renewable Subscription"
    /// `Non-Consumable`.
    public static let nonConsumable: Self = "Non-Consumable"
    /// `Consumable`.
    public static let consumable: Self = "Consumable"
    /// `Non-Renewing Subscription`.
    public static let nonRenewing: Self = "Non-Renewing Subscription"

    /// StoreSync's product type for Apple's spelling; a spelling StoreSync does not know (a type
    /// Apple added later) is kept as Apple wrote it.
    public var productType: ProductType {
        switch self {
        case .autoRenewable: .autoRenewable
        case .nonConsumable: .nonConsumable
        case .consumable: .consumable
        case .nonRenewing: .nonRenewing
        default: ProductType(rawValue: rawValue)
        }
    }

    /// Apple's spelling of a StoreSync product type; a kind StoreSync does not know keeps the
    /// spelling it came with.
    ///
    /// - Parameter productType: The product type.
    public init(_ productType: ProductType) {
        switch productType {
        case .autoRenewable: self = .autoRenewable
        case .nonConsumable: self = .nonConsumable
        case .consumable: self = .consumable
        case .nonRenewing: self = .nonRenewing
        default: self.init(rawValue: productType.rawValue)
        }
    }
}
