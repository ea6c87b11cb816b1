import Foundation

extension ChainAssessor {
    /// The auto-renewable rule.
    ///
    /// The newest (purchase date, signed date, transaction id) record that is verified, not
    /// revoked, not upgraded, purchased at or before `at` and carries an `expiresDate` names the
    /// product. The subscription is paid through the greatest `expiresDate` of those records. The
    /// chain's renewal info extends that: its `gracePeriodExpiresDate` when set, otherwise, when
    /// Apple is in billing retry, the catalog's `gracePeriodSeconds` after the paid-through date.
    /// Active while the resulting end is after `at`; the end is always reported.
    func assessSubscription(
        _ originalTransactionId: String, members: ArraySlice<Int>, newestIndex: Int, product: CatalogProduct
    ) -> ChainAssessment {
        var naming: Int?
        var paidThrough: Date?
        var newestUpgraded: Int?
        var newestRevoked: Int?
        var futureRecord: Int?
        var recordWithoutExpiry: Int?
        for index in members {
            let record = records[index]
            guard record.evidence.grants else { continue }
            if record.isRevoked {
                newestRevoked = ChainSummary.newer(newestRevoked, index, in: records)
                continue
            }
            if record.isUpgraded {
                newestUpgraded = ChainSummary.newer(newestUpgraded, index, in: records)
                continue
            }
            guard record.purchaseDate <= at else {
                futureRecord = futureRecord ?? index
                continue
            }
            guard let expires = record.expiresDate else {
                recordWithoutExpiry = index
                continue
            }
            naming = ChainSummary.newer(naming, index, in: records)
            if paidThrough.map({ expires > $0 }) ?? true { paidThrough = expires }
        }
        func denial(_ outcome: EntitlementExplanation.Outcome, _ index: Int, _ reason: @autoclosure () -> String)
            -> ChainAssessment
        {
            let record = records[index]
            return ChainAssessment(
                originalTransactionId: originalTransactionId, productId: record.productId,
                product: record.productId == product.productId ? product : catalog[record.productId],
                decidingRecord: record, status: .denied(outcome, expiresAt: nil), reason: explaining ? reason() : "")
        }
        guard let naming, let paidThrough else {
            if let index = recordWithoutExpiry {
                return denial(.expired, index, ExplanationText.subscriptionWithoutExpiry(records[index]))
            }
            if let index = futureRecord {
                let record = records[index]
                return denial(.notYetStarted, index, ExplanationText.notYetStarted(record, start: record.purchaseDate, at: at))
            }
            // Of an upgrade and a refund, the later event explains the chain.
            if let index = newestUpgraded,
                newestRevoked.map({ !TransactionRecord.isNewer(records[$0], than: records[index]) }) ?? true
            {
                return denial(.upgraded, index, ExplanationText.upgraded(records[index]))
            }
            let index = newestRevoked ?? newestIndex
            return denial(.revoked, index, ExplanationText.revoked(records[index]))
        }
        let record = records[naming]
        let namedProduct = naming == newestIndex ? product : catalog[record.productId]
        guard let namedProduct else {
            return denial(.unknownProduct, naming, ExplanationText.unknownProduct(record))
        }
        guard namedProduct.type == .autoRenewable, record.productType == .autoRenewable else {
            return denial(.productTypeMismatch, naming, ExplanationText.typeMismatch(record, catalogType: namedProduct.type))
        }
        let graceEnd = graceEnd(originalTransactionId, paidThrough: paidThrough, product: namedProduct)
        let expiresAt = graceEnd.map { max($0, paidThrough) } ?? paidThrough
        let active = expiresAt > at
        let reason = explaining
            ? ExplanationText.subscription(record, paidThrough: paidThrough, graceEnd: graceEnd, expiresAt: expiresAt, active: active)
            : ""
        return ChainAssessment(
            originalTransactionId: originalTransactionId, productId: record.productId, product: namedProduct,
            decidingRecord: record,
            status: active ? .granted(expiresAt: expiresAt) : .denied(.expired, expiresAt: expiresAt),
            reason: reason)
    }

    private func graceEnd(_ originalTransactionId: String, paidThrough: Date, product: CatalogProduct) -> Date? {
        guard let info = ledger.renewalInfo(for: originalTransactionId) else { return nil }
        if let explicitEnd = info.gracePeriodExpiresDate { return explicitEnd }
        guard info.isInBillingRetryPeriod, let seconds = product.gracePeriodSeconds, seconds > 0 else { return nil }
        return paidThrough.addingTimeInterval(TimeInterval(seconds))
    }
}
