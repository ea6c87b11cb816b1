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

    /// StoreSync's product type for Apple's spelling, or `nil` for a value it does not know.
    public var productType: ProductType? {
        switch self {
        case .autoRenewable: .autoRenewable
        case .nonConsumable: .nonConsumable
        case .consumable: .consumable
        case .nonRenewing: .nonRenewing
        default: nil
        }
    }

    /// Apple's spelling of a StoreSync product type.
    ///
    /// - Parameter productType: The product type.
    public init(_ productType: ProductType) {
        switch productType {
        case .autoRenewable: self = .autoRenewable
        case .nonConsumable: self = .nonConsumable
        case .consumable: self = .consumable
        case .nonRenewing: self = .nonRenewing
        }
    }
}
