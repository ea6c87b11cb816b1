public import StoreSyncCore

/// Products the tests buy: one of each kind, a subscription group with two tiers, and a
/// second product granting `premium` so overlapping sources can be tested.
public enum TestCatalog {
    public static let lifetime = "com.example.storesync.lifetime"
    public static let monthly = "com.example.storesync.monthly"
    public static let monthlyPro = "com.example.storesync.monthly.pro"
    public static let seasonPass = "com.example.storesync.season"
    public static let coins = "com.example.storesync.coins"
    public static let subscriptionGroup = "premium.group"
    /// 30 days: the length of one season pass.
    public static let seasonPassSeconds = 30 * 86_400

    /// The standard catalog of the test server.
    public static let products: [CatalogProduct] = [
        CatalogProduct(productId: lifetime, type: .nonConsumable, entitlements: ["premium"]),
        CatalogProduct(
            productId: monthly, type: .autoRenewable, entitlements: ["premium"], subscriptionGroupId: subscriptionGroup,
            gracePeriodSeconds: 16 * 86_400),
        CatalogProduct(
            productId: monthlyPro, type: .autoRenewable, entitlements: ["premium", "pro"],
            subscriptionGroupId: subscriptionGroup, gracePeriodSeconds: 16 * 86_400),
        CatalogProduct(productId: seasonPass, type: .nonRenewing, entitlements: ["season"], durationSeconds: seasonPassSeconds),
        CatalogProduct(productId: coins, type: .consumable, entitlements: []),
    ]
}
