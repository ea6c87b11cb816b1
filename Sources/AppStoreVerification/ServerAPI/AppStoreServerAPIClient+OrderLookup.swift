extension AppStoreServerAPIClient {
    /// Look Up Order ID: the transactions of the order id on a customer's App Store receipt
    /// e-mail.
    ///
    /// - Parameter orderId: The order id (e.g. `MK5TTTVWJH`).
    /// - Returns: Whether the order is valid, and its verified transactions.
    /// - Throws: ``AppStoreServerAPIError``.
    public func lookUpOrder(_ orderId: String) async throws(AppStoreServerAPIError) -> AppStoreOrderLookup {
        let endpoint = "order lookup"
        let id = try AppStoreServerAPIRequest.id(orderId, name: "orderId")
        let request = AppStoreServerAPIRequest(endpoint: endpoint, method: .get, path: "/inApps/v1/lookup/\(id)")
        let body = try decode(LookupBody.self, from: try await send(request), endpoint: endpoint)
        var skipped: [AppStoreSkippedItem] = []
        let transactions = await verifiedTransactions(body.signedTransactions ?? [], from: endpoint, skipped: &skipped)
        return AppStoreOrderLookup(isValid: body.status == 0, transactions: transactions, skipped: skipped)
    }

    /// Apple's `OrderLookupResponse`.
    private struct LookupBody: Decodable {
        var status: Int
        var signedTransactions: [String]?
    }
}
