import Foundation

/// Applies DESIGN §2's per-kind rules to one purchase chain at one evaluation time.
///
/// Choices the rules leave open, settled here:
/// - Only verified records (any evidence but `claim`) decide; a chain of claims grants nothing
///   and can be neither revoked nor expired by a claim.
/// - The chain's kind is the catalog's type for the product of its newest verified record
///   (latest purchase date, then signed date, then transaction id). When Apple's record says
///   another kind, the chain grants nothing (``EntitlementExplanation/Outcome/productTypeMismatch``):
///   a misconfigured catalog must not turn a subscription into a lifetime purchase. A record of
///   a kind Apple added later, which StoreSync does not know, contradicts nothing: the
///   catalog's kind applies (``CatalogProduct/describes(_:)``).
/// - A revocation voids the purchase whatever the evaluation time: a refund is retroactive, and
///   an access window between purchase and refund must not reopen because Apple's clock and
///   ours differ.
/// - A purchase counts from the chain's purchase date, the earliest `originalPurchaseDate` of
///   its verified records; a chain whose purchase date is after `at` grants nothing at `at`.
/// - The deciding record's `ownershipType` marks the entitlement purchased or family-shared.
///
/// Records are read in place by index (`records[index].field`), never copied whole.
struct ChainAssessor {
    let records: [TransactionRecord]
    let ledger: Ledger
    let catalog: Catalog
    let at: Date
    let explaining: Bool

    func assess(_ originalTransactionId: String, members: ArraySlice<Int>) -> ChainAssessment {
        let summary = ChainSummary(records: records, members: members)
        func assessment(_ index: Int, _ product: CatalogProduct?, _ status: ChainAssessment.Status,
                        _ reason: @autoclosure () -> String) -> ChainAssessment {
            ChainAssessment(
                originalTransactionId: originalTransactionId, decidingIndex: index, product: product,
                ownershipType: records[index].ownershipType, status: status, reason: explaining ? reason() : "")
        }
        guard let newest = summary.newestVerified else {
            let claim = summary.newestClaim ?? members.startIndex
            return assessment(claim, catalog[records[claim].productId], .denied(.claimOnly, expiresAt: nil),
                              ExplanationText.claimOnly(records[claim]))
        }
        guard let product = catalog[records[newest].productId] else {
            return assessment(newest, nil, .denied(.unknownProduct, expiresAt: nil), ExplanationText.unknownProduct(records[newest]))
        }
        guard product.describes(records[newest]) else {
            return assessment(newest, product, .denied(.productTypeMismatch, expiresAt: nil),
                              ExplanationText.typeMismatch(records[newest], catalogType: product.type))
        }
        let start = summary.earliestPurchase ?? records[newest].originalPurchaseDate
        switch product.type {
        case .consumable:
            return assessment(newest, product, .denied(.consumable, expiresAt: nil),
                              ExplanationText.consumable(records[newest], quantity: summary.quantity))
        case .nonConsumable, .nonRenewing:
            if let revoked = summary.newestRevoked {
                let revokedProduct = records[revoked].productId == product.productId ? product : catalog[records[revoked].productId]
                return assessment(revoked, revokedProduct, .denied(.revoked, expiresAt: nil), ExplanationText.revoked(records[revoked]))
            }
            if product.type == .nonRenewing, (product.durationSeconds ?? 0) <= 0 {
                return assessment(newest, product, .denied(.missingDuration, expiresAt: nil),
                                  ExplanationText.missingDuration(records[newest]))
            }
            guard start <= at else {
                return assessment(newest, product, .denied(.notYetStarted, expiresAt: nil),
                                  ExplanationText.notYetStarted(records[newest], start: start, at: at))
            }
            if product.type == .nonRenewing, let duration = product.durationSeconds {
                return assessment(newest, product, .stackable(start: start, duration: TimeInterval(duration)), "")
            }
            return assessment(newest, product, .granted(expiresAt: nil), ExplanationText.lifetime(records[newest], start: start))
        case .autoRenewable:
            return assessSubscription(originalTransactionId, members: members, newest: newest, product: product)
        default:
            // A catalog defines only the kinds StoreSync knows; a product of any other kind is not
            // one it can derive an entitlement from.
            return assessment(newest, nil, .denied(.unknownProduct, expiresAt: nil), ExplanationText.unknownProduct(records[newest]))
        }
    }
}

/// One pass over a chain's records collecting what every rule needs.
struct ChainSummary {
    var newestVerified: Int?
    var newestClaim: Int?
    var newestRevoked: Int?
    /// The earliest `originalPurchaseDate` of the verified records.
    var earliestPurchase: Date?
    /// The total quantity of the verified records.
    var quantity = 0

    init(records: [TransactionRecord], members: some Sequence<Int>) {
        for index in members {
            guard records[index].evidence.grants else {
                newestClaim = Self.newer(newestClaim, index, in: records)
                continue
            }
            newestVerified = Self.newer(newestVerified, index, in: records)
            if records[index].isRevoked { newestRevoked = Self.newer(newestRevoked, index, in: records) }
            let originalPurchase = records[index].originalPurchaseDate
            if earliestPurchase.map({ originalPurchase < $0 }) ?? true { earliestPurchase = originalPurchase }
            quantity += records[index].quantity
        }
    }

    /// The newer of two records by index (see ``TransactionRecord/isNewer(_:than:)``).
    static func newer(_ current: Int?, _ candidate: Int, in records: [TransactionRecord]) -> Int {
        guard let current else { return candidate }
        var order = FieldOrder.compare(records[candidate].purchaseDate, records[current].purchaseDate)
        if order == 0 { order = FieldOrder.compare(records[candidate].signedDate, records[current].signedDate) }
        if order == 0 { order = records[candidate].transactionId.compareUTF8(records[current].transactionId) }
        return order > 0 ? candidate : current
    }
}
