import Foundation

/// Applies DESIGN §2's per-kind rules to one purchase chain at one evaluation time.
///
/// Choices the rules leave open, settled here:
/// - Only verified records (any evidence but `claim`) decide; a chain of claims grants nothing
///   and can be neither revoked nor expired by a claim.
/// - The chain's kind is the catalog's type for the product of its newest verified record
///   (latest purchase date, then signed date, then transaction id). When Apple's record says
///   another kind, the chain grants nothing (``EntitlementExplanation/Outcome/productTypeMismatch``):
///   a misconfigured catalog must not turn a subscription into a lifetime purchase.
/// - A revocation voids the purchase whatever the evaluation time: a refund is retroactive, and
///   an access window between purchase and refund must not reopen because Apple's clock and
///   ours differ.
/// - A purchase counts from the chain's purchase date, the earliest `originalPurchaseDate` of
///   its verified records; a chain whose purchase date is after `at` grants nothing at `at`.
/// - The deciding record's `ownershipType` marks the entitlement purchased or family-shared.
struct ChainAssessor {
    let records: [TransactionRecord]
    let ledger: Ledger
    let catalog: Catalog
    let at: Date
    let explaining: Bool

    func assess(_ originalTransactionId: String, members: ArraySlice<Int>) -> ChainAssessment {
        let summary = ChainSummary(records: records, members: members)
        guard let newestIndex = summary.newestVerified else {
            let claim = records[summary.newestClaim ?? members.startIndex]
            return ChainAssessment(
                originalTransactionId: originalTransactionId, productId: claim.productId,
                product: catalog[claim.productId], decidingRecord: claim,
                status: .denied(.claimOnly, expiresAt: nil),
                reason: explaining ? ExplanationText.claimOnly(claim) : "")
        }
        let newest = records[newestIndex]
        func denial(_ outcome: EntitlementExplanation.Outcome, _ record: TransactionRecord, _ product: CatalogProduct?,
                    _ reason: @autoclosure () -> String) -> ChainAssessment {
            ChainAssessment(
                originalTransactionId: originalTransactionId, productId: record.productId, product: product,
                decidingRecord: record, status: .denied(outcome, expiresAt: nil), reason: explaining ? reason() : "")
        }
        guard let product = catalog[newest.productId] else {
            return denial(.unknownProduct, newest, nil, ExplanationText.unknownProduct(newest))
        }
        guard product.type == newest.productType else {
            return denial(.productTypeMismatch, newest, product, ExplanationText.typeMismatch(newest, catalogType: product.type))
        }
        let start = summary.earliestPurchase ?? newest.originalPurchaseDate
        switch product.type {
        case .consumable:
            return denial(.consumable, newest, product, ExplanationText.consumable(newest, quantity: summary.quantity))
        case .nonConsumable, .nonRenewing:
            if let revokedIndex = summary.newestRevoked {
                let revoked = records[revokedIndex]
                let revokedProduct = revoked.productId == product.productId ? product : catalog[revoked.productId]
                return denial(.revoked, revoked, revokedProduct, ExplanationText.revoked(revoked))
            }
            if product.type == .nonRenewing {
                guard let duration = product.durationSeconds, duration > 0 else {
                    return denial(.missingDuration, newest, product, ExplanationText.missingDuration(newest))
                }
                guard start <= at else {
                    return denial(.notYetStarted, newest, product, ExplanationText.notYetStarted(newest, start: start, at: at))
                }
                return ChainAssessment(
                    originalTransactionId: originalTransactionId, productId: newest.productId, product: product,
                    decidingRecord: newest, status: .stackable(start: start, duration: TimeInterval(duration)), reason: "")
            }
            guard start <= at else {
                return denial(.notYetStarted, newest, product, ExplanationText.notYetStarted(newest, start: start, at: at))
            }
            return ChainAssessment(
                originalTransactionId: originalTransactionId, productId: newest.productId, product: product,
                decidingRecord: newest, status: .granted(expiresAt: nil),
                reason: explaining ? ExplanationText.lifetime(newest, start: start) : "")
        case .autoRenewable:
            return assessSubscription(originalTransactionId, members: members, newestIndex: newestIndex, product: product)
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

    init(records: [TransactionRecord], members: ArraySlice<Int>) {
        for index in members {
            let record = records[index]
            guard record.evidence.grants else {
                newestClaim = Self.newer(newestClaim, index, in: records)
                continue
            }
            newestVerified = Self.newer(newestVerified, index, in: records)
            if record.isRevoked { newestRevoked = Self.newer(newestRevoked, index, in: records) }
            if earliestPurchase.map({ record.originalPurchaseDate < $0 }) ?? true {
                earliestPurchase = record.originalPurchaseDate
            }
            quantity += record.quantity
        }
    }

    static func newer(_ current: Int?, _ candidate: Int, in records: [TransactionRecord]) -> Int {
        guard let current else { return candidate }
        return TransactionRecord.isNewer(records[candidate], than: records[current]) ? candidate : current
    }
}
