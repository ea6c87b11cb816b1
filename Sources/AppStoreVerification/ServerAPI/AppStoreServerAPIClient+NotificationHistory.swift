import Foundation
import StoreSyncCore

extension AppStoreServerAPIClient {
    /// Get Notification History: every page of the notifications Apple sent, or tried to
    /// send, in a span.
    ///
    /// - Parameters:
    ///   - query: The span and filters.
    ///   - paginationToken: A token from an earlier call that stopped with `hasMore`; `nil` to start.
    /// - Returns: The verified notifications of up to ``AppStoreServerAPIConfiguration/maximumPages``
    ///   pages; `hasMore` says whether to call again with the returned `paginationToken`.
    /// - Throws: ``AppStoreServerAPIError``; `invalidArgument` for an empty span, `rejected` with
    ///   `startDateTooFarInPast` for a start more than 180 days back.
    public func notificationHistory(_ query: AppStoreNotificationHistoryQuery, paginationToken: String? = nil)
        async throws(AppStoreServerAPIError) -> AppStoreNotificationHistory
    {
        try await collectPages(from: paginationToken) { (token: String?) throws(AppStoreServerAPIError) in
            try await notificationHistoryPage(query, paginationToken: token)
        }
    }

    /// Get Notification History: one page (up to 20 notifications).
    ///
    /// - Parameters:
    ///   - query: The span and filters; the same for every page.
    ///   - paginationToken: The previous page's token; `nil` for the first page.
    /// - Returns: The page's verified notifications, its token and `hasMore`.
    /// - Throws: ``AppStoreServerAPIError``.
    public func notificationHistoryPage(_ query: AppStoreNotificationHistoryQuery, paginationToken: String? = nil)
        async throws(AppStoreServerAPIError) -> AppStoreNotificationHistory
    {
        let endpoint = "notification history"
        guard query.startDate < query.endDate else { throw .invalidArgument("startDate must be before endDate") }
        let requestBody = HistoryRequestBody(
            startDate: query.startDate.millisecondsSince1970, endDate: query.endDate.millisecondsSince1970,
            transactionId: try query.transactionId.map { (id: String) throws(AppStoreServerAPIError) in
                try AppStoreServerAPIRequest.id(id, name: "transactionId")
            },
            onlyFailures: query.onlyFailures ? true : nil)
        var request = AppStoreServerAPIRequest(
            endpoint: endpoint, method: .post, path: "/inApps/v1/notifications/history",
            body: try? JSONEncoder().encode(requestBody))
        if let paginationToken { request.query.append((name: "paginationToken", value: paginationToken)) }
        let body = try decode(HistoryBody.self, from: try await send(request), endpoint: endpoint)
        let hasMore = body.hasMore ?? false
        guard !hasMore || body.paginationToken != nil else {
            throw .malformedResponse("hasMore without a paginationToken")
        }
        var skipped: [AppStoreSkippedItem] = []
        var items: [AppStoreNotificationHistory.Item] = []
        for entry in body.notificationHistory ?? [] {
            guard let signedPayload = entry.signedPayload else {
                skip(.notification, from: endpoint, because: .malformed("signedPayload is missing"), into: &skipped)
                continue
            }
            let notification = await verified(.notification, from: endpoint, skipped: &skipped) {
                () throws(VerificationError) in try await verifier.verifyNotification(signedPayload)
            }
            if let notification { items.append(.init(notification: notification, sendAttempts: entry.sendAttempts ?? [])) }
        }
        return AppStoreNotificationHistory(
            items: items, skipped: skipped, paginationToken: body.paginationToken, hasMore: hasMore)
    }

    /// Apple's `NotificationHistoryRequest`: dates in milliseconds since 1970.
    private struct HistoryRequestBody: Encodable {
        var startDate: Int64
        var endDate: Int64
        var transactionId: String?
        var onlyFailures: Bool?
    }

    /// Apple's `NotificationHistoryResponse`.
    private struct HistoryBody: Decodable {
        var notificationHistory: [Entry]?
        var hasMore: Bool?
        var paginationToken: String?

        struct Entry: Decodable {
            var signedPayload: String?
            var sendAttempts: [AppStoreSendAttempt]?
        }
    }
}
