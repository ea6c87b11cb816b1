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

        // latest_receipt_info is the newest state of each transaction; in_app fills in the rest.
        var entries: [ReceiptEntry] = []
        var seen: Set<String> = []
        for entry in (response.latestReceiptInfo ?? []) + (receipt.inApp ?? []) {
            guard let transactionId = entry.transactionId else {
                throw .malformedResponse("transaction_id is missing")
            }
            if seen.insert(transactionId).inserted { entries.append(entry) }
        }

        var records: [TransactionRecord] = []
        var unclassified: Set<String> = []
        for entry in entries {
            guard let productType = productType(of: entry) else {
                unclassified.insert(entry.productId ?? "")
                continue
            }
            records.append(try entry.record(productType: productType, environment: environment, verifiedAt: now))
        }
        return VerifiedReceipt(
            environment: environment,
            bundleId: configuration.bundleId,
            records: records,
            status: response.status,
            entries: entries,
            unclassifiedProductIds: unclassified.sorted())
    }

    /// The configured type of the entry's product, else auto-renewable when it expires.
    private func productType(of entry: ReceiptEntry) -> ProductType? {
        if let productId = entry.productId, let type = configuration.productTypes[productId] { return type }
        return entry.expiresDateMs == nil ? nil : .autoRenewable
    }
}
