import Foundation

/// The sentences explanations are made of, kept apart so the rules read as rules.
enum ExplanationText {
    static func date(_ date: Date) -> String {
        RFC3339Timestamp.string(from: date) ?? "\(date.timeIntervalSince1970) s after 1970"
    }

    static func claimOnly(_ claim: TransactionRecord) -> String {
        "Only unverified claims mention \(claim.productId) (latest: transaction \(claim.transactionId)); "
            + "a claim never grants until verified evidence confirms it."
    }

    static func unknownProduct(_ record: TransactionRecord) -> String {
        "Product \(record.productId) is not in the catalog, so transaction \(record.transactionId) grants nothing."
    }

    static func typeMismatch(_ record: TransactionRecord, catalogType: ProductType) -> String {
        "Transaction \(record.transactionId) says \(record.productId) is \(record.productType.rawValue) "
            + "but the catalog says \(catalogType.rawValue); it grants nothing until they agree."
    }

    static func consumable(_ record: TransactionRecord, quantity: Int) -> String {
        "\(record.productId) is a consumable (quantity \(quantity) in this purchase): kept for history, never an entitlement."
    }

    static func revoked(_ record: TransactionRecord) -> String {
        let when = record.revocationDate.map(date) ?? "an unknown date"
        let why = record.revocationReason.map { " (reason \($0.rawValue))" } ?? ""
        return "Transaction \(record.transactionId) was revoked at \(when)\(why); a revocation voids the purchase."
    }

    static func notYetStarted(_ record: TransactionRecord, start: Date, at: Date) -> String {
        "The purchase of \(record.productId) starts at \(date(start)), after the evaluation time \(date(at))."
    }

    static func lifetime(_ record: TransactionRecord, start: Date) -> String {
        "Purchase of \(record.productId) made \(date(start)) is owned for life (latest record: transaction \(record.transactionId))."
    }

    static func missingDuration(_ record: TransactionRecord) -> String {
        "Non-renewing product \(record.productId) has no positive durationSeconds in the catalog, "
            + "so transaction \(record.transactionId) grants nothing."
    }

    static func noEntitlement(_ productId: String) -> String {
        "The catalog lists no entitlement for \(productId)."
    }

    static func subscription(
        _ record: TransactionRecord, paidThrough: Date, graceEnd: Date?, expiresAt: Date, active: Bool
    ) -> String {
        var text = "Transaction \(record.transactionId) names \(record.productId); the subscription is paid through \(date(paidThrough))"
        if let graceEnd, graceEnd > paidThrough { text += " with a billing grace period until \(date(graceEnd))" }
        text += active ? ", so access lasts until \(date(expiresAt))." : ", so access ended at \(date(expiresAt))."
        return text
    }

    static func subscriptionWithoutExpiry(_ record: TransactionRecord) -> String {
        "Transaction \(record.transactionId) of subscription \(record.productId) carries no expiresDate, so it grants nothing."
    }

    static func upgraded(_ record: TransactionRecord) -> String {
        "Transaction \(record.transactionId) of \(record.productId) was upgraded to another product of its subscription group."
    }

    static func replaced(_ productId: String, by decidingProductId: String) -> String {
        "\(productId) was replaced by \(decidingProductId) within the same purchase."
    }

    static func stacked(start: Date, end: Date, stackEnd: Date, outcome: EntitlementExplanation.Outcome) -> String {
        let period = "its stacked period runs from \(date(start)) to \(date(end))"
        switch outcome {
        case .granted: return "Non-renewing purchase in use: \(period); stacked purchases keep access until \(date(stackEnd))."
        case .queued: return "Non-renewing purchase queued: \(period), extending access until \(date(stackEnd))."
        default: return "Non-renewing purchase used up: \(period)."
        }
    }

    static func superseded(by winner: EntitlementCandidate) -> String {
        let term = winner.expiresAt.map { "until \(date($0))" } ?? "for life"
        return "Purchase \(winner.originalTransactionId) (\(winner.productId)) grants \(winner.entitlementId) \(term) instead."
    }
}
