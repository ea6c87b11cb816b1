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
        _ originalTransactionId: String, members: ArraySlice<Int>, newest: Int, product: CatalogProduct
    ) -> ChainAssessment {
        var naming: Int?
        var paidThrough: Date?
        var newestUpgraded: Int?
        var newestRevoked: Int?
        var futureRecord: Int?
        var recordWithoutExpiry: Int?
        for index in members where records[index].evidence.grants {
            if records[index].isRevoked {
                newestRevoked = ChainSummary.newer(newestRevoked, index, in: records)
            } else if records[index].isUpgraded {
                newestUpgraded = ChainSummary.newer(newestUpgraded, index, in: records)
            } else if records[index].purchaseDate > at {
                futureRecord = futureRecord ?? index
            } else if let expires = records[index].expiresDate {
                naming = ChainSummary.newer(naming, index, in: records)
                if paidThrough.map({ expires > $0 }) ?? true { paidThrough = expires }
            } else {
                recordWithoutExpiry = index
            }
        }
        func assessment(_ index: Int, _ status: ChainAssessment.Status, _ reason: @autoclosure () -> String) -> ChainAssessment {
            let named = records[index].productId == product.productId ? product : catalog[records[index].productId]
            return ChainAssessment(
                originalTransactionId: originalTransactionId, decidingIndex: index, product: named,
                ownershipType: records[index].ownershipType, status: status, reason: explaining ? reason() : "")
        }
        guard let naming, let paidThrough else {
            if let index = recordWithoutExpiry {
                return assessment(index, .denied(.expired, expiresAt: nil), ExplanationText.subscriptionWithoutExpiry(records[index]))
            }
            if let index = futureRecord {
                return assessment(index, .denied(.notYetStarted, expiresAt: nil),
                                  ExplanationText.notYetStarted(records[index], start: records[index].purchaseDate, at: at))
            }
            // Of an upgrade and a refund, the later event explains the chain.
            if let upgraded = newestUpgraded,
                newestRevoked.map({ ChainSummary.newer($0, upgraded, in: records) == upgraded }) ?? true
            {
                return assessment(upgraded, .denied(.upgraded, expiresAt: nil), ExplanationText.upgraded(records[upgraded]))
            }
            let revoked = newestRevoked ?? newest
            return assessment(revoked, .denied(.revoked, expiresAt: nil), ExplanationText.revoked(records[revoked]))
        }
        let named = naming == newest ? product : catalog[records[naming].productId]
        guard let named else {
            return assessment(naming, .denied(.unknownProduct, expiresAt: nil), ExplanationText.unknownProduct(records[naming]))
        }
        guard named.type == .autoRenewable, named.describes(records[naming]) else {
            return assessment(naming, .denied(.productTypeMismatch, expiresAt: nil),
                              ExplanationText.typeMismatch(records[naming], catalogType: named.type))
        }
        let graceEnd = graceEnd(originalTransactionId, paidThrough: paidThrough, product: named)
        let expiresAt = graceEnd.map { max($0, paidThrough) } ?? paidThrough
        let active = expiresAt > at
        return assessment(
            naming, active ? .granted(expiresAt: expiresAt) : .denied(.expired, expiresAt: expiresAt),
            ExplanationText.subscription(
                records[naming], paidThrough: paidThrough, graceEnd: graceEnd, expiresAt: expiresAt, active: active))
    }

    private func graceEnd(_ originalTransactionId: String, paidThrough: Date, product: CatalogProduct) -> Date? {
        guard let info = ledger.renewalInfo(for: originalTransactionId) else { return nil }
        if let explicitEnd = info.gracePeriodExpiresDate { return explicitEnd }
        guard info.isInBillingRetryPeriod, let seconds = product.gracePeriodSeconds, seconds > 0 else { return nil }
        return paidThrough.addingTimeInterval(TimeInterval(seconds))
    }
}
