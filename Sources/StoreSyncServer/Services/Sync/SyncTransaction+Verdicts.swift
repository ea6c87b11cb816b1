import Foundation
import StoreSyncAPI
import StoreSyncCore

extension SyncTransaction {
    /// The verdict of every item, in the order the device sent them. Static, needing nothing of
    /// the transaction's connection, so it runs beside the transaction's last statement.
    ///
    /// - Parameters:
    ///   - items: What the device handed in, verified.
    ///   - presenter: The account that presented them.
    ///   - decisions: Where each purchase went.
    ///   - stored: What storing the versions left.
    static func verdicts(
        for items: [SyncItem], presenter: UUID, decisions: [String: OwnershipDecision], stored: Stored
    ) -> [Verdict] {
        items.map {
            verdict(for: $0, presenter: presenter, decisions: decisions, inserted: stored.inserted, ledger: stored.ledger)
        }
    }

    /// The verdict for one item.
    private static func verdict(
        for item: SyncItem, presenter: UUID, decisions: [String: OwnershipDecision], inserted: Set<VersionKey>,
        ledger: Ledger
    ) -> Verdict {
        switch item {
        case .verified(let record, _):
            let isNew = inserted.contains(VersionKey(accountId: presenter, record: record))
            switch decisions[record.originalTransactionId] {
            case .transfer(_, let reason)?:
                return Verdict(record, .transferred, reason: reason)
            case .routeToTokenAccount?:
                return Verdict(record, .ownedByOtherAccount, reason: "the purchase belongs to the account its appAccountToken names")
            case .refuse(let reason)?:
                return Verdict(record, .ownedByOtherAccount, reason: reason)
            case .coolingDown(let movableAt)?:
                return Verdict(
                    originalTransactionId: record.originalTransactionId, transactionId: record.transactionId,
                    verdict: .ownedByOtherAccount,
                    reason: "the purchase moved between accounts recently; it may move again at movableAt",
                    productId: record.productId, movableAt: movableAt)
            case .share?:
                return Verdict(record, isNew ? .accepted : .known, reason: "shared with the account that owns it")
            case .keepHere?, nil:
                return Verdict(record, isNew ? .accepted : .known, reason: nil)
            }
        case .rejected(let record, _, let reason):
            return Verdict(
                originalTransactionId: record?.originalTransactionId ?? "", transactionId: record?.transactionId ?? "",
                verdict: .rejected, reason: reason, productId: record?.productId)
        case .unsigned(let entry, _):
            return confirm(entry, in: ledger)
        case .legacyFlag(let productId):
            guard let proof = Self.verifiedPurchase(of: productId, in: ledger) else {
                return Verdict(
                    originalTransactionId: "", transactionId: "", verdict: .unverifiedClaim,
                    reason: "the server holds no verified purchase of \(productId) for this account", productId: productId)
            }
            return Verdict(proof, .known, reason: "confirmed by a verified purchase")
        case .unknownLegacyFlags(let count):
            return Verdict(
                originalTransactionId: "", transactionId: "", verdict: .rejected,
                reason: "\(count) legacy flags name products the catalog does not define; they were ignored")
        }
    }

    /// An entry without signed data is only ever confirmed by what the server already holds.
    private static func confirm(_ entry: TransactionRecord, in ledger: Ledger) -> Verdict {
        if let held = ledger[entry.transactionId], held.evidence.grants {
            guard held.productId == entry.productId, held.originalTransactionId == entry.originalTransactionId else {
                return Verdict(entry, .rejected, reason: "the entry does not match the server's record of this transaction")
            }
            return Verdict(held, .known, reason: nil)
        }
        if entry.evidence == .claim {
            if let proof = Self.verifiedPurchase(of: entry.productId, in: ledger) {
                return Verdict(proof, .known, reason: "confirmed by a verified purchase")
            }
            return Verdict(
                entry, .unverifiedClaim,
                reason: "the server holds no verified purchase of \(entry.productId) for this account")
        }
        return Verdict(entry, .rejected, reason: "the entry carries no signed transaction and the server holds no such transaction")
    }

    /// A verified, unrevoked record of the product that this account holds.
    static func verifiedPurchase(of productId: String, in ledger: Ledger) -> TransactionRecord? {
        ledger.records.first { $0.productId == productId && $0.evidence.grants && !$0.isRevoked }
    }
}

extension Verdict {
    init(_ record: TransactionRecord, _ kind: VerdictKind, reason: String?) {
        self.init(
            originalTransactionId: record.originalTransactionId, transactionId: record.transactionId, verdict: kind,
            reason: reason, productId: record.productId)
    }
}
