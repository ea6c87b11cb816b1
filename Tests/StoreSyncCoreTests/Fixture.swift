import Foundation
import StoreSyncCore

/// Builders that keep the rule tables short: days after a fixed origin, records with
/// sensible defaults, and one catalog covering every kind of product.
enum Fixture {
    /// 2026-01-01T00:00:00Z.
    static let origin = Date(millisecondsSince1970: 1_767_225_600_000)

    static func day(_ offset: Double) -> Date { origin.addingTimeInterval(offset * 86_400) }

    static let catalog = Catalog([
        CatalogProduct(productId: "lifetime", type: .nonConsumable, entitlements: ["premium"]),
        CatalogProduct(productId: "lifetime.family", type: .nonConsumable, entitlements: ["premium"]),
        CatalogProduct(
            productId: "monthly", type: .autoRenewable, entitlements: ["premium"],
            subscriptionGroupId: "group", gracePeriodSeconds: 16 * 86_400),
        CatalogProduct(
            productId: "monthly.pro", type: .autoRenewable, entitlements: ["premium", "pro"],
            subscriptionGroupId: "group"),
        CatalogProduct(productId: "pass30", type: .nonRenewing, entitlements: ["season"], durationSeconds: 30 * 86_400),
        CatalogProduct(productId: "pass7", type: .nonRenewing, entitlements: ["season"], durationSeconds: 7 * 86_400),
        CatalogProduct(productId: "pass.broken", type: .nonRenewing, entitlements: ["season"]),
        CatalogProduct(productId: "coins", type: .consumable, entitlements: []),
        CatalogProduct(productId: "sticker", type: .nonConsumable, entitlements: []),
    ])

    static func type(of productId: String) -> ProductType { catalog[productId]?.type ?? .nonConsumable }

    /// A record of `product`, purchased on `purchased` (days), signed when purchased unless told.
    static func record(
        _ transactionId: String,
        original: String? = nil,
        product: String,
        type: ProductType? = nil,
        purchased: Double,
        originallyPurchased: Double? = nil,
        expires: Double? = nil,
        revoked: Double? = nil,
        upgraded: Bool = false,
        ownership: OwnershipType = .purchased,
        environment: AppStoreEnvironment = .production,
        signed: Double? = nil,
        evidence: Evidence = .jws,
        signedTransaction: String? = nil,
        quantity: Int = 1
    ) -> TransactionRecord {
        TransactionRecord(
            transactionId: transactionId,
            originalTransactionId: original ?? transactionId,
            productId: product,
            productType: type ?? Self.type(of: product),
            purchaseDate: day(purchased),
            originalPurchaseDate: day(originallyPurchased ?? purchased),
            expiresDate: expires.map(day),
            revocationDate: revoked.map(day),
            revocationReason: revoked == nil ? nil : .other,
            isUpgraded: upgraded,
            ownershipType: ownership,
            environment: environment,
            quantity: quantity,
            signedDate: day(signed ?? purchased),
            subscriptionGroupId: Self.type(of: product) == .autoRenewable ? "group" : nil,
            evidence: evidence,
            signedTransaction: signedTransaction)
    }

    static func entitlements(_ records: [TransactionRecord], renewalInfos: [RenewalInfo] = [], at offset: Double)
        -> [Entitlement]
    {
        StoreSyncCore.entitlements(
            ledger: Ledger(records: records, renewalInfos: renewalInfos), catalog: catalog, at: day(offset))
    }

    static func report(_ records: [TransactionRecord], renewalInfos: [RenewalInfo] = [], at offset: Double)
        -> EntitlementReport
    {
        explainEntitlements(ledger: Ledger(records: records, renewalInfos: renewalInfos), catalog: catalog, at: day(offset))
    }
}
