import StoreSyncCore

extension AppStoreServerAPIClient {
    /// Get All Subscription Statuses: the status, newest transaction and renewal info of each of
    /// a customer's auto-renewable subscriptions.
    ///
    /// A subscription is listed only when its transaction, and its renewal info when present,
    /// pass verification and name the same original transaction; otherwise its items are
    /// reported in `skipped`.
    ///
    /// - Parameter transactionId: Any transaction id or original transaction id of the customer.
    /// - Returns: The verified statuses.
    /// - Throws: ``AppStoreServerAPIError``; `notFound` for an unknown transaction id.
    public func subscriptionStatuses(for transactionId: String) async throws(AppStoreServerAPIError)
        -> AppStoreSubscriptionStatuses
    {
        let endpoint = "subscription statuses"
        let id = try AppStoreServerAPIRequest.id(transactionId, name: "transactionId")
        let request = AppStoreServerAPIRequest(endpoint: endpoint, method: .get, path: "/inApps/v1/subscriptions/\(id)")
        let body = try decode(StatusBody.self, from: try await send(request), endpoint: endpoint)
        var skipped: [AppStoreSkippedItem] = []
        var groups: [AppStoreSubscriptionStatuses.Group] = []
        for group in body.data ?? [] {
            var items: [AppStoreSubscriptionStatuses.Item] = []
            for last in group.lastTransactions ?? [] {
                if let item = await verifiedItem(last, from: endpoint, skipped: &skipped) { items.append(item) }
            }
            groups.append(.init(subscriptionGroupIdentifier: group.subscriptionGroupIdentifier ?? "", items: items))
        }
        return AppStoreSubscriptionStatuses(groups: groups, skipped: skipped)
    }

    private func verifiedItem(
        _ last: StatusBody.LastTransaction, from endpoint: String, skipped: inout [AppStoreSkippedItem]
    ) async -> AppStoreSubscriptionStatuses.Item? {
        guard let signedTransaction = last.signedTransactionInfo else {
            skip(.transaction, from: endpoint, because: .malformed("signedTransactionInfo is missing"), into: &skipped)
            return nil
        }
        let transaction = await verified(.transaction, from: endpoint, skipped: &skipped) { () throws(VerificationError) in
            try await verifier.verifyTransaction(signedTransaction)
        }
        var renewalInfo: VerifiedRenewalInfo?
        if let signedRenewalInfo = last.signedRenewalInfo {
            renewalInfo = await verified(.renewalInfo, from: endpoint, skipped: &skipped) {
                () throws(VerificationError) in try await verifier.verifyRenewalInfo(signedRenewalInfo)
            }
            guard renewalInfo != nil else { return nil }
        }
        guard let transaction else { return nil }
        let original = transaction.record.originalTransactionId
        if let renewalInfo, renewalInfo.renewalInfo.originalTransactionId != original {
            let reason = VerificationError.malformed("the renewal info names another originalTransactionId")
            skip(.renewalInfo, from: endpoint, because: reason, into: &skipped)
            return nil
        }
        return AppStoreSubscriptionStatuses.Item(
            status: AppStoreSubscriptionStatus(rawValue: last.status ?? 0), transaction: transaction,
            renewalInfo: renewalInfo)
    }

    /// Apple's `StatusResponse`, the fields StoreSync reads.
    private struct StatusBody: Decodable {
        var data: [Group]?

        struct Group: Decodable {
            var subscriptionGroupIdentifier: String?
            var lastTransactions: [LastTransaction]?
        }

        struct LastTransaction: Decodable {
            var status: Int?
            var originalTransactionId: String?
            var signedTransactionInfo: String?
            var signedRenewalInfo: String?
        }
    }
}
