public import Foundation
public import StoreSyncCore

/// Two devices' ledgers of one large account, built deterministically (no clock, fixed seed):
/// the workload of the merge benchmarks (`Benchmarks/` and `make bench`).
///
/// Each device holds `recordsPerDevice` records; half of each device's transaction ids also
/// appear on the other device, a third of those as a conflicting version (a later renewal,
/// a refund, or the copy carrying the JWS). The mix: auto-renewable chains of 1–12 renewals
/// in several groups, non-consumables with restore copies, non-renewing passes, consumables.
public struct LedgerWorkload: Sendable {
    /// The first device's ledger.
    public let deviceA: Ledger
    /// The second device's ledger.
    public let deviceB: Ledger
    /// Both merged.
    public let merged: Ledger
    /// The products the records name.
    public let catalog: Catalog
    /// When the entitlements are evaluated: within the records' time span.
    public let evaluatedAt: Date

    private static let origin: Int64 = 1_767_225_600_000  // 2026-01-01T00:00:00Z
    private static let day: Int64 = 86_400_000

    /// Builds the two ledgers.
    ///
    /// - Parameter recordsPerDevice: Records on each device.
    public init(recordsPerDevice: Int) {
        var random = SeededGenerator(seed: 0x5EED)
        catalog = Self.makeCatalog()
        let universe = Self.makeUniverse(count: recordsPerDevice * 3 / 2, random: &random)
        let shared = recordsPerDevice / 2
        var onA = Array(universe[0..<recordsPerDevice])
        var onB = Array(universe[(recordsPerDevice - shared)...])
        for index in 0..<shared where index % 3 == 0 {
            onB[index] = Self.laterVersion(of: onA[recordsPerDevice - shared + index], variant: index / 3)
        }
        onA.shuffle(using: &random)
        onB.shuffle(using: &random)
        deviceA = Ledger(records: onA)
        deviceB = Ledger(records: onB)
        merged = deviceA.merging(deviceB)
        evaluatedAt = Date(millisecondsSince1970: Self.origin + 200 * Self.day)
    }

    private static func makeCatalog() -> Catalog {
        var products: [CatalogProduct] = []
        for tier in 0..<4 {
            products.append(CatalogProduct(
                productId: "com.example.app.subscription.tier\(tier).monthly", type: .autoRenewable,
                entitlements: tier == 3 ? ["premium", "pro"] : ["premium"], subscriptionGroupId: "group.main",
                gracePeriodSeconds: 16 * 86_400))
        }
        for item in 0..<8 {
            products.append(CatalogProduct(
                productId: "com.example.app.unlock.feature\(item)", type: .nonConsumable, entitlements: ["feature\(item)"]))
        }
        products.append(CatalogProduct(
            productId: "com.example.app.pass.thirty", type: .nonRenewing, entitlements: ["season"], durationSeconds: 2_592_000))
        products.append(CatalogProduct(
            productId: "com.example.app.pass.seven", type: .nonRenewing, entitlements: ["season"], durationSeconds: 604_800))
        products.append(CatalogProduct(productId: "com.example.app.coins.100", type: .consumable, entitlements: []))
        return Catalog(products)
    }

    private static func makeUniverse(count: Int, random: inout SeededGenerator) -> [TransactionRecord] {
        var records: [TransactionRecord] = []
        records.reserveCapacity(count)
        var next = 2_000_000_000_000_000
        while records.count < count {
            let original = String(next)
            let start = origin + Int64(random.next() % 300) * day
            switch random.next() % 10 {
            case 0..<4:
                let tier = Int(random.next() % 4)
                let renewals = 1 + Int(random.next() % 12)
                for period in 0..<renewals where records.count < count {
                    let purchase = start + Int64(period) * 30 * day
                    records.append(record(
                        String(next + period), original: original, product: "com.example.app.subscription.tier\(tier).monthly",
                        type: .autoRenewable, purchase: purchase, originalPurchase: start, expires: purchase + 30 * day))
                }
                next += renewals
            case 4..<6:
                let item = Int(random.next() % 8)
                records.append(record(
                    original, original: original, product: "com.example.app.unlock.feature\(item)", type: .nonConsumable,
                    purchase: start, originalPurchase: start, expires: nil))
                if random.next() % 2 == 0, records.count < count {
                    records.append(record(
                        String(next + 1), original: original, product: "com.example.app.unlock.feature\(item)",
                        type: .nonConsumable, purchase: start + 40 * day, originalPurchase: start, expires: nil))
                }
                next += 2
            case 6:
                let product = random.next() % 2 == 0 ? "com.example.app.pass.thirty" : "com.example.app.pass.seven"
                records.append(record(
                    original, original: original, product: product, type: .nonRenewing,
                    purchase: start, originalPurchase: start, expires: nil))
                next += 1
            default:
                records.append(record(
                    original, original: original, product: "com.example.app.coins.100", type: .consumable,
                    purchase: start, originalPurchase: start, expires: nil))
                next += 1
            }
        }
        return records
    }

    private static func record(
        _ transactionId: String, original: String, product: String, type: ProductType,
        purchase: Int64, originalPurchase: Int64, expires: Int64?
    ) -> TransactionRecord {
        TransactionRecord(
            transactionId: transactionId, originalTransactionId: original, productId: product, productType: type,
            purchaseDate: Date(millisecondsSince1970: purchase), originalPurchaseDate: Date(millisecondsSince1970: originalPurchase),
            expiresDate: expires.map(Date.init(millisecondsSince1970:)), signedDate: Date(millisecondsSince1970: purchase),
            subscriptionGroupId: type == .autoRenewable ? "group.main" : nil, evidence: .jws)
    }

    private static func laterVersion(of record: TransactionRecord, variant: Int) -> TransactionRecord {
        var later = record
        later.signedDate = record.signedDate.addingTimeInterval(86_400)
        switch variant % 3 {
        case 0 where record.productType == .autoRenewable:
            later.expiresDate = record.expiresDate?.addingTimeInterval(30 * 86_400)
        case 1:
            later.revocationDate = later.signedDate
            later.revocationReason = .other
        default:
            later.signedDate = record.signedDate
            later.signedTransaction = "eyJhbGciOiJFUzI1NiJ9.payload-of-\(record.transactionId).signature"
        }
        return later
    }
}
