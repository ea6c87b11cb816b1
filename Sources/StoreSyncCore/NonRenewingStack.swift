import Foundation

/// The non-renewing purchases of one entitlement id, laid end to end.
///
/// Purchases are taken in order of chain purchase date, then original transaction id; each
/// starts at `max(its purchase date, the previous one's end)` and lasts its own product's
/// `durationSeconds`. A purchase made after the previous one ended starts a new interval (the
/// gap is not access). Only purchases made at or before `at` take part, so every interval but
/// the last has ended by `at`: the entitlement is active when the last interval's end is after
/// `at`, and that end is the reported expiry. The entitlement names the purchase whose own
/// stacked period contains `at`; later ones are ``EntitlementExplanation/Outcome/queued``.
struct NonRenewingStack {
    struct Entry {
        var start: Date
        var duration: TimeInterval
        var assessment: ChainAssessment
    }

    let entitlementId: String
    private(set) var entries: [Entry] = []

    init(entitlementId: String) { self.entitlementId = entitlementId }

    mutating func append(_ entry: Entry) { entries.append(entry) }

    /// The stack's candidate when it covers `at`, and one explanation per purchase.
    func resolve(at: Date, records: [TransactionRecord], explaining: Bool)
        -> (candidate: EntitlementCandidate?, explanations: [EntitlementExplanation])
    {
        // The order of the entries' indices, not of the entries: an entry holds its chain's
        // assessment (strings and the catalog's product), and sorting thousands moved them
        // around many times over.
        let order = entries.indices.sorted { lhs, rhs in
            entries[lhs].start != entries[rhs].start
                ? entries[lhs].start < entries[rhs].start
                : entries[lhs].assessment.originalTransactionId.compareUTF8(entries[rhs].assessment.originalTransactionId) < 0
        }
        var periods: [(start: Date, end: Date)] = []
        periods.reserveCapacity(order.count)
        for index in order {
            let start = periods.last.map { max($0.end, entries[index].start) } ?? entries[index].start
            periods.append((start, start.addingTimeInterval(entries[index].duration)))
        }
        guard let stackEnd = periods.last?.end else { return (nil, []) }
        let current = stackEnd > at ? periods.firstIndex { $0.start <= at && at < $0.end } : nil
        var candidate: EntitlementCandidate?
        if let current {
            let assessment = entries[order[current]].assessment
            candidate = EntitlementCandidate(
                entitlementId: entitlementId, productId: records[assessment.decidingIndex].productId,
                originalTransactionId: assessment.originalTransactionId, expiresAt: stackEnd,
                ownershipType: assessment.ownershipType, source: .nonRenewing,
                environment: records[assessment.decidingIndex].environment)
        }
        guard explaining else { return (candidate, []) }
        let explanations = order.indices.map { index in
            let period = periods[index]
            let outcome: EntitlementExplanation.Outcome =
                index == current ? .granted : (current != nil && period.start > at ? .queued : .expired)
            let assessment = entries[order[index]].assessment
            return EntitlementExplanation(
                entitlementId: entitlementId, productId: records[assessment.decidingIndex].productId,
                originalTransactionId: assessment.originalTransactionId,
                decidingTransactionId: records[assessment.decidingIndex].transactionId, outcome: outcome,
                expiresAt: outcome == .granted ? stackEnd : period.end,
                reason: ExplanationText.stacked(start: period.start, end: period.end, stackEnd: stackEnd, outcome: outcome))
        }
        return (candidate, explanations)
    }
}
