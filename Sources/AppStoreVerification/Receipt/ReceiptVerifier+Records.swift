import Foundation
import StoreSyncCore

extension ReceiptVerifier {
    /// Turns a valid answer into records, after checking whose receipt it is.
    func verifiedReceipt(from response: ReceiptResponse, answeredBy endpoint: AppStoreEnvironment, now: Date)
        throws(ReceiptVerificationError) -> VerifiedReceipt
    {
        guard let receipt = response.receipt else { throw .malformedResponse("receipt is missing") }
        guard receipt.bundleId == configuration.bundleId else { throw .bundleMismatch }
        let environment = response.environment.flatMap(AppStoreEnvironment.init(appleName:)) ?? endpoint

        // latest_receipt_info is Apple's current state of each transaction, as of this answer;
        // in_app is what this copy of the receipt holds, as of when it was made. A device may
        // send a copy made before a refund: dated by its making, its entries lose the merge to
        // a version learnt from a later copy instead of undoing the refund.
        let receiptMade = try receiptCreationDate(receipt, answeredAt: now)
        var entries: [ReceiptEntry] = []
        var stateAsOf: [Date] = []
        var seen: Set<String> = []
        for (entry, asOf) in (response.latestReceiptInfo ?? []).map({ ($0, now) }) + (receipt.inApp ?? []).map({ ($0, receiptMade) }) {
            guard let transactionId = entry.transactionId else {
                throw .malformedResponse("transaction_id is missing")
            }
            if seen.insert(transactionId).inserted {
                entries.append(entry)
                stateAsOf.append(asOf)
            }
        }

        var records: [TransactionRecord] = []
        var unclassified: Set<String> = []
        for (entry, asOf) in zip(entries, stateAsOf) {
            let productType = productType(of: entry) ?? .unstated
            if productType == .unstated { unclassified.insert(entry.productId ?? "") }
            records.append(
                try entry.record(productType: productType, environment: environment, stateAsOf: asOf, verifiedAt: now))
        }
        return VerifiedReceipt(
            environment: environment,
            bundleId: configuration.bundleId,
            records: records,
            status: response.status,
            entries: entries,
            unclassifiedProductIds: unclassified.sorted())
    }

    /// When Apple made this copy of the receipt, never after its answer (`now` when the answer
    /// does not say, as for receipts older than the field).
    private func receiptCreationDate(_ receipt: ReceiptResponse.Receipt, answeredAt now: Date)
        throws(ReceiptVerificationError) -> Date
    {
        guard let made = try ReceiptEntry.date(receipt.creationDateMs, "receipt_creation_date_ms") else { return now }
        return min(made, now)
    }

    /// The configured type of the entry's product, else auto-renewable when it expires.
    private func productType(of entry: ReceiptEntry) -> ProductType? {
        if let productId = entry.productId, let type = configuration.productTypes[productId] { return type }
        return entry.expiresDateMs == nil ? nil : .autoRenewable
    }
}
