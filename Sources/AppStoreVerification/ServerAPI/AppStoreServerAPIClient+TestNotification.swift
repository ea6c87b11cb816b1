extension AppStoreServerAPIClient {
    /// Request a Test Notification: asks Apple to send a `TEST` notification to the app's
    /// App Store Server Notifications URL.
    ///
    /// - Returns: The `testNotificationToken` to pass to ``testNotificationStatus(_:)``.
    /// - Throws: ``AppStoreServerAPIError``; `notFound` with `serverNotificationURLNotFound`
    ///   when the app has no notifications URL.
    public func requestTestNotification() async throws(AppStoreServerAPIError) -> String {
        let endpoint = "test notification request"
        let request = AppStoreServerAPIRequest(endpoint: endpoint, method: .post, path: "/inApps/v1/notifications/test")
        let body = try decode(RequestBody.self, from: try await send(request), endpoint: endpoint)
        return body.testNotificationToken
    }

    /// Get Test Notification Status: the test notification and whether it reached the server.
    ///
    /// - Parameter testNotificationToken: The token ``requestTestNotification()`` returned.
    /// - Returns: The verified notification and its delivery attempts.
    /// - Throws: ``AppStoreServerAPIError``; `notFound` for an unknown token.
    public func testNotificationStatus(_ testNotificationToken: String) async throws(AppStoreServerAPIError)
        -> AppStoreTestNotificationStatus
    {
        let endpoint = "test notification status"
        let token = try AppStoreServerAPIRequest.id(testNotificationToken, name: "testNotificationToken")
        let request = AppStoreServerAPIRequest(
            endpoint: endpoint, method: .get, path: "/inApps/v1/notifications/test/\(token)")
        let body = try decode(StatusBody.self, from: try await send(request), endpoint: endpoint)
        var skipped: [AppStoreSkippedItem] = []
        var notification: VerifiedNotification?
        if let signedPayload = body.signedPayload {
            notification = await verified(.notification, from: endpoint, skipped: &skipped) {
                () throws(VerificationError) in try await verifier.verifyNotification(signedPayload)
            }
        } else {
            skip(.notification, from: endpoint, because: .malformed("signedPayload is missing"), into: &skipped)
        }
        return AppStoreTestNotificationStatus(
            notification: notification, sendAttempts: body.sendAttempts ?? [], skipped: skipped)
    }

    /// Apple's `SendTestNotificationResponse`.
    private struct RequestBody: Decodable {
        var testNotificationToken: String
    }

    /// Apple's `CheckTestNotificationResponse`.
    private struct StatusBody: Decodable {
        var signedPayload: String?
        var sendAttempts: [AppStoreSendAttempt]?
    }
}
