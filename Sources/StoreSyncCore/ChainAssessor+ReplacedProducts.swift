import Foundation

extension ChainAssessor {
    /// Explanations for the other products a chain mentions, e.g. the tier a subscription was
    /// upgraded from: one per entitlement id that the deciding product does not already cover.
    func explainReplacedProducts(of assessment: ChainAssessment, members: ArraySlice<Int>) -> [EntitlementExplanation] {
        var seenProducts = [assessment.productId]
        var coveredIds = assessment.entitlementIds
        var explanations: [EntitlementExplanation] = []
        for index in members {
            let productId = records[index].productId
            guard !seenProducts.contains(where: { $0.compareUTF8(productId) == 0 }) else { continue }
            seenProducts.append(productId)
            let productMembers = members.filter { records[$0].productId.compareUTF8(productId) == 0 }
            let (outcome, deciding, reason) = replacedOutcome(productMembers, replacedBy: assessment.productId)
            guard let product = catalog[productId] else {
                explanations.append(EntitlementExplanation(
                    entitlementId: nil, productId: productId, originalTransactionId: assessment.originalTransactionId,
                    decidingTransactionId: deciding.transactionId, outcome: .unknownProduct, expiresAt: nil,
                    reason: ExplanationText.unknownProduct(deciding)))
                continue
            }
            for entitlementId in product.entitlements where !coveredIds.contains(where: { $0.compareUTF8(entitlementId) == 0 }) {
                coveredIds.append(entitlementId)
                explanations.append(EntitlementExplanation(
                    entitlementId: entitlementId, productId: productId,
                    originalTransactionId: assessment.originalTransactionId,
                    decidingTransactionId: deciding.transactionId, outcome: outcome,
                    expiresAt: outcome == .expired ? deciding.expiresDate : nil, reason: reason))
            }
        }
        return explanations
    }

    /// What became of a product the chain no longer names.
    private func replacedOutcome(
        _ productMembers: [Int], replacedBy decidingProductId: String
    ) -> (EntitlementExplanation.Outcome, TransactionRecord, String) {
        let summary = ChainSummary(records: records, members: productMembers[...])
        guard let newestIndex = summary.newestVerified else {
            let claim = records[summary.newestClaim ?? productMembers[0]]
            return (.claimOnly, claim, ExplanationText.claimOnly(claim))
        }
        let verified = productMembers.filter { records[$0].evidence.grants }
        if verified.allSatisfy({ records[$0].isRevoked }) {
            let revoked = records[summary.newestRevoked ?? newestIndex]
            return (.revoked, revoked, ExplanationText.revoked(revoked))
        }
        if let upgraded = verified.last(where: { records[$0].isUpgraded }) {
            return (.upgraded, records[upgraded], ExplanationText.upgraded(records[upgraded]))
        }
        let newest = records[newestIndex]
        if verified.allSatisfy({ records[$0].purchaseDate > at }) {
            return (.notYetStarted, newest, ExplanationText.notYetStarted(newest, start: newest.purchaseDate, at: at))
        }
        return (.expired, newest, ExplanationText.replaced(newest.productId, by: decidingProductId))
    }
}
