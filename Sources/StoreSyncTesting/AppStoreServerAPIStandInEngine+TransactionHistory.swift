import AppStoreVerification
import Hummingbird
import StoreSyncCore

extension AppStoreServerAPIStandInEngine {
    /// Get Transaction History v2: the customer's transaction versions recorded after
    /// `revision`, a page at a time.
    func transactionHistory(for transactionId: String, revision: String?) async -> Response {
        guard let customer = await state.customer(holding: transactionId) else {
            return Self.error(404, .transactionIdNotFound, "Transaction id not found.")
        }
        var after = 0
        if let revision {
            guard revision.hasPrefix("rev-"), let sequence = Int(revision.dropFirst("rev-".count)), sequence >= 0 else {
                return Self.error(400, .invalidRequestRevision, "Invalid request revision.")
            }
            after = sequence
        }
        let remaining = customer.entries.filter { $0.sequence > after }.sorted { $0.sequence < $1.sequence }
        let page = remaining.prefix(pageSize)
        let tamperings = await state.tamperings
        return Self.json(
            HistoryBody(
                revision: "rev-\(page.last?.sequence ?? after)", hasMore: remaining.count > page.count,
                bundleId: signer.bundleId, appAppleId: signer.appAppleId, environment: environment.appleName,
                signedTransactions: page.map { entry in
                    signed(.transaction(entry.record.transactionId), tamperings: tamperings) {
                        $0.signTransaction(entry.record)
                    }
                }))
    }

    /// Apple's `HistoryResponse`.
    private struct HistoryBody: Encodable {
        var revision: String
        var hasMore: Bool
        var bundleId: String
        var appAppleId: Int64
        var environment: String
        var signedTransactions: [String]
    }
}
