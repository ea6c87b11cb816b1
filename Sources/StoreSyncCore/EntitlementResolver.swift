import Foundation

/// Runs the derivation: assesses every chain, lets the sources of each entitlement id compete,
/// and, when explaining, writes down why.
///
/// Chains are grouped without copying records and assessed in one pass; only the winning
/// source per entitlement id is kept unless explanations are wanted, so deriving entitlements
/// allocates a fixed number of buffers plus one per non-renewing entitlement id.
struct EntitlementResolver {
    let ledger: Ledger
    let catalog: Catalog
    let at: Date
    let explaining: Bool

    private var best: [UTF8Key: EntitlementCandidate] = [:]
    private var stacks: [UTF8Key: NonRenewingStack] = [:]
    private var explanations: [EntitlementExplanation] = []

    init(ledger: Ledger, catalog: Catalog, at: Date, explaining: Bool) {
        self.ledger = ledger
        self.catalog = catalog
        self.at = at
        self.explaining = explaining
    }

    consuming func resolve() -> EntitlementReport {
        let grouping = ChainGrouping(ledger.records)
        let assessor = ChainAssessor(records: ledger.records, ledger: ledger, catalog: catalog, at: at, explaining: explaining)
        for chain in 0..<grouping.count {
            let members = grouping.members(of: chain)
            let assessment = assessor.assess(grouping.originalTransactionIds[chain], members: members)
            record(assessment)
            if explaining {
                explanations += assessor.explainReplacedProducts(of: assessment, members: members)
            }
        }
        for stack in stacks.values {
            let (candidate, stackExplanations) = stack.resolve(at: at, records: ledger.records, explaining: explaining)
            if let candidate { offer(candidate) }
            explanations += stackExplanations
        }
        let entitlements = best.values.map(\.entitlement).sorted { $0.entitlementId.compareUTF8($1.entitlementId) < 0 }
        return EntitlementReport(entitlements: entitlements, explanations: explaining ? finishedExplanations() : [])
    }

    private mutating func record(_ assessment: ChainAssessment) {
        let entitlementIds = assessment.entitlementIds
        switch assessment.status {
        case .granted(let expiresAt):
            for entitlementId in entitlementIds {
                offer(EntitlementCandidate(
                    entitlementId: entitlementId, productId: ledger.records[assessment.decidingIndex].productId,
                    originalTransactionId: assessment.originalTransactionId, expiresAt: expiresAt,
                    ownershipType: assessment.ownershipType, source: assessment.product?.type ?? .nonConsumable,
                    environment: ledger.records[assessment.decidingIndex].environment))
            }
            explain(assessment, entitlementIds, outcome: entitlementIds.isEmpty ? .noEntitlement : .granted, expiresAt: expiresAt)
        case .stackable(let start, let duration):
            for entitlementId in entitlementIds {
                stacks[UTF8Key(entitlementId), default: NonRenewingStack(entitlementId: entitlementId)]
                    .append(.init(start: start, duration: duration, assessment: assessment))
            }
            if entitlementIds.isEmpty { explain(assessment, [], outcome: .noEntitlement, expiresAt: nil) }
        case .denied(let outcome, let expiresAt):
            explain(assessment, entitlementIds, outcome: outcome, expiresAt: expiresAt)
        }
    }

    private mutating func offer(_ candidate: EntitlementCandidate) {
        let key = UTF8Key(candidate.entitlementId)
        if let current = best[key], !candidate.outranks(current) { return }
        best[key] = candidate
    }

    /// One explanation per entitlement id, or one without an id when there is none.
    private mutating func explain(
        _ assessment: ChainAssessment, _ entitlementIds: [String], outcome: EntitlementExplanation.Outcome, expiresAt: Date?
    ) {
        guard explaining else { return }
        let deciding = ledger.records[assessment.decidingIndex]
        let reason = outcome == .noEntitlement ? ExplanationText.noEntitlement(deciding.productId) : assessment.reason
        let ids: [String?] = entitlementIds.isEmpty ? [nil] : entitlementIds
        for entitlementId in ids {
            explanations.append(EntitlementExplanation(
                entitlementId: entitlementId, productId: deciding.productId,
                originalTransactionId: assessment.originalTransactionId,
                decidingTransactionId: deciding.transactionId,
                outcome: outcome, expiresAt: expiresAt, reason: reason))
        }
    }

    /// Granted sources that lost to another become superseded; then a deterministic order.
    private func finishedExplanations() -> [EntitlementExplanation] {
        var finished = explanations
        for index in finished.indices where finished[index].outcome == .granted {
            guard let entitlementId = finished[index].entitlementId, let winner = best[UTF8Key(entitlementId)],
                winner.originalTransactionId.compareUTF8(finished[index].originalTransactionId) != 0
            else { continue }
            finished[index].outcome = .superseded
            finished[index].reason += " " + ExplanationText.superseded(by: winner)
        }
        return finished.sorted(by: Self.explanationOrder)
    }

    private static func explanationOrder(_ lhs: EntitlementExplanation, _ rhs: EntitlementExplanation) -> Bool {
        var order = FieldOrder.compare(lhs.entitlementId, rhs.entitlementId)
        if order == 0 { order = lhs.originalTransactionId.compareUTF8(rhs.originalTransactionId) }
        if order == 0 { order = lhs.productId.compareUTF8(rhs.productId) }
        return order < 0
    }
}
