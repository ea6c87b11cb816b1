import Foundation

extension AppStoreServerAPIClient {
    /// Get Transaction History (v2): every page of a customer's transactions for the app.
    ///
    /// - Parameters:
    ///   - transactionId: Any transaction id or original transaction id of the customer.
    ///   - revision: A ``AppStoreTransactionHistory/revision`` from an earlier call, to fetch
    ///     only what came after it; `nil` for the whole history.
    /// - Returns: The verified transactions of up to ``AppStoreServerAPIConfiguration/maximumPages``
    ///   pages; `hasMore` says whether to call again with the returned `revision`.
    /// - Throws: ``AppStoreServerAPIError``; `notFound` for an unknown transaction id.
    public func transactionHistory(for transactionId: String, after revision: String? = nil)
        async throws(AppStoreServerAPIError) -> AppStoreTransactionHistory
    {
        try await collectPages(from: revision) { (token: String?) throws(AppStoreServerAPIError) in
            try await transactionHistoryPage(for: transactionId, revision: token)
        }
    }

    /// Get Transaction History (v2): one page (up to 20 transactions).
    ///
    /// - Parameters:
    ///   - transactionId: Any transaction id or original transaction id of the customer.
    ///   - revision: The previous page's `revision`; `nil` for the first page.
    /// - Returns: The page's verified transactions, its `revision` and `hasMore`.
    /// - Throws: ``AppStoreServerAPIError``.
    public func transactionHistoryPage(for transactionId: String, revision: String? = nil)
        async throws(AppStoreServerAPIError) -> AppStoreTransactionHistory
    {
        let endpoint = "transaction history"
        let id = try AppStoreServerAPIRequest.id(transactionId, name: "transactionId")
        var request = AppStoreServerAPIRequest(endpoint: endpoint, method: .get, path: "/inApps/v2/history/\(id)")
        if let revision { request.query.append((name: "revision", value: revision)) }
        let body = try decode(HistoryBody.self, from: try await send(request), endpoint: endpoint)
        let hasMore = body.hasMore ?? false
        guard !hasMore || body.revision != nil else { throw .malformedResponse("hasMore without a revision") }
        var skipped: [AppStoreSkippedItem] = []
        let transactions = await verifiedTransactions(body.signedTransactions ?? [], from: endpoint, skipped: &skipped)
        return AppStoreTransactionHistory(
            transactions: transactions, skipped: skipped, revision: body.revision, hasMore: hasMore)
    }

    /// Apple's `HistoryResponse`, the fields StoreSync reads.
    private struct HistoryBody: Decodable {
        var revision: String?
        var hasMore: Bool?
        var signedTransactions: [String]?
    }
}
