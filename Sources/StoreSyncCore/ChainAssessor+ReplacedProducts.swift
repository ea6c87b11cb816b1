import Foundation

extension ChainAssessor {
    /// Explanations for the other products a chain mentions, e.g. the tier a subscription was
    /// upgraded from: one per entitlement id that the deciding product does not already cover.
    func explainReplacedProducts(of assessment: ChainAssessment, members: ArraySlice<Int>) -> [EntitlementExplanation] {
        let decidingProductId = records[assessment.decidingIndex].productId
        var seenProducts = [decidingProductId]
        var coveredIds = assessment.entitlementIds
        var explanations: [EntitlementExplanation] = []
        for index in members {
            let productId = records[index].productId
            guard !seenProducts.contains(where: { $0.compareUTF8(productId) == 0 }) else { continue }
            seenProducts.append(productId)
            let productMembers = members.filter { records[$0].productId.compareUTF8(productId) == 0 }
            let (outcome, deciding, reason) = replacedOutcome(productMembers, replacedBy: decidingProductId)
            guard let product = catalog[productId] else {
                explanations.append(EntitlementExplanation(
                    entitlementId: nil, productId: productId, originalTransactionId: assessment.originalTransactionId,
                    decidingTransactionId: records[deciding].transactionId, outcome: .unknownProduct, expiresAt: nil,
                    reason: ExplanationText.unknownProduct(records[deciding])))
                continue
            }
            for entitlementId in product.entitlements where !coveredIds.contains(where: { $0.compareUTF8(entitlementId) == 0 }) {
                coveredIds.append(entitlementId)
                explanations.append(EntitlementExplanation(
                    entitlementId: entitlementId, productId: productId,
                    originalTransactionId: assessment.originalTransactionId,
                    decidingTransactionId: records[deciding].transactionId, outcome: outcome,
                    expiresAt: outcome == .expired ? records[deciding].expiresDate : nil, reason: reason))
            }
        }
        return explanations
    }

    /// What became of a product the chain no longer names, and the record that shows it.
    private func replacedOutcome(
        _ productMembers: [Int], replacedBy decidingProductId: String
    ) -> (EntitlementExplanation.Outcome, Int, String) {
        let summary = ChainSummary(records: records, members: productMembers)
        guard let newest = summary.newestVerified else {
            let claim = summary.newestClaim ?? productMembers[0]
            return (.claimOnly, claim, ExplanationText.claimOnly(records[claim]))
        }
        let verified = productMembers.filter { records[$0].evidence.grants }
        if verified.allSatisfy({ records[$0].isRevoked }) {
            let revoked = summary.newestRevoked ?? newest
            return (.revoked, revoked, ExplanationText.revoked(records[revoked]))
        }
        if let upgraded = verified.last(where: { records[$0].isUpgraded }) {
            return (.upgraded, upgraded, ExplanationText.upgraded(records[upgraded]))
        }
        if verified.allSatisfy({ records[$0].purchaseDate > at }) {
            return (.notYetStarted, newest,
                    ExplanationText.notYetStarted(records[newest], start: records[newest].purchaseDate, at: at))
        }
        return (.expired, newest, ExplanationText.replaced(records[newest].productId, by: decidingProductId))
    }
}
