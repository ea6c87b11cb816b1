import AppStoreVerification
import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import NIOHTTP1
import StoreSyncCore

extension AppStoreServerAPIStandInEngine {
    /// Look Up Order ID: the current versions of the order's transactions, or status 1 for an
    /// order id the stand-in was not told about.
    func orderLookup(_ orderId: String) async -> Response {
        guard let ids = await state.orders[orderId] else { return Self.json(LookupBody(status: 1, signedTransactions: [])) }
        let records = await state.transactions(ids)
        let tamperings = await state.tamperings
        return Self.json(
            LookupBody(
                status: 0,
                signedTransactions: records.map { record in
                    signed(.transaction(record.transactionId), tamperings: tamperings) { $0.signTransaction(record) }
                }))
    }

    /// Request a Test Notification: signs a `TEST` notification, posts it to the notification
    /// URL as Apple would, and records the attempt before answering with the token.
    func requestTestNotification() async -> Response {
        guard let url = await state.notificationURL else {
            return Self.error(404, .serverNotificationURLNotFound, "No App Store Server Notifications URL is set.")
        }
        let sentAt = now()
        let notification = AppStoreServerAPIStandInNotification(
            type: .test, signedDate: sentAt, environment: environment, sendAttempts: [])
        let token = "\(notification.uuid.uuidString.lowercased())_\(sentAt.millisecondsSince1970)"
        await state.addTestNotification(notification, token: token)
        let result = await deliver(signed(notification, tamperings: await state.tamperings), to: url)
        await state.recordAttempt(AppStoreSendAttempt(attemptDate: sentAt, sendAttemptResult: result), for: notification.uuid)
        return Self.json(["testNotificationToken": token])
    }

    /// Get Test Notification Status: the test notification and its delivery attempts.
    func testNotificationStatus(_ token: String) async -> Response {
        guard let uuid = await state.testNotifications[token],
            let notification = await state.notifications.first(where: { $0.uuid == uuid })
        else { return Self.error(404, .testNotificationNotFound, "Test notification not found.") }
        return Self.json(
            TestStatusBody(
                signedPayload: signed(notification, tamperings: await state.tamperings),
                sendAttempts: notification.sendAttempts.map(Attempt.init)))
    }

    /// Posts `{signedPayload}` to the app's notification URL, as the App Store does. The wait
    /// is long enough that a server slowed by the rest of the suite still counts as answering.
    private func deliver(_ signedPayload: String, to url: URL) async -> AppStoreSendAttemptResult {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        let body = (try? JSONEncoder().encode(["signedPayload": signedPayload])) ?? Data()
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await TestHTTPClient.shared.execute(request, timeout: .seconds(60))
            _ = try? await response.body.collect(upTo: 1024 * 1024)
            return (200..<300).contains(response.status.code) ? .success : .unsuccessfulHTTPResponseCode
        } catch {
            return .noResponse
        }
    }

    /// Apple's `OrderLookupResponse`.
    private struct LookupBody: Encodable {
        var status: Int
        var signedTransactions: [String]
    }

    /// Apple's `CheckTestNotificationResponse`.
    private struct TestStatusBody: Encodable {
        var signedPayload: String
        var sendAttempts: [Attempt]
    }
}
