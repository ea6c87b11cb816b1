import Foundation
import Hummingbird
import StoreSyncAPI
import StoreSyncCore

/// The admin routes that ask Apple's App Store Server API: reconcile a purchase, recover missed
/// notifications, find an order, test the notification loop. Without the API settings each
/// answers 503 `appstore-api-not-configured`.
struct AppStoreAdminController {
    let reconciliation: ReconciliationService
    let recovery: NotificationRecoveryService
    let orders: OrderLookupService
    let testNotifications: TestNotificationService

    /// `{since?}` is a few dozen bytes: anything far larger is refused before it is read.
    static let maxRecoveryBodyBytes = 4_096

    func addRoutes(to group: RouterGroup<StoreSyncRequestContext>) {
        group.post("purchases/{originalTransactionId}/refresh", use: refresh)
        group.post("notifications/recover", use: recover)
        group.get("orders/{orderId}", use: order)
        group.post("appstore/test-notification", use: testNotification)
    }

    @Sendable func refresh(_ request: Request, context: StoreSyncRequestContext) async throws -> PurchaseRefreshResponse {
        let id = try context.parameters.require("originalTransactionId")
        guard let refreshed = try await reconciliation.refresh(id) else {
            throw ProblemError.notFound("the App Store knows no purchase \(id)")
        }
        return PurchaseRefreshResponse(refreshed)
    }

    @Sendable func recover(_ request: Request, context: StoreSyncRequestContext) async throws -> NotificationRecoveryResponse {
        let body: NotificationRecoveryRequest
        if request.headers[.contentType] == nil {
            // No body at all is `{}`; a body without its type is refused as any other route does.
            guard try await request.body.collect(upTo: Self.maxRecoveryBodyBytes).readableBytes == 0 else {
                throw ProblemError.unsupportedMediaType(nil)
            }
            body = NotificationRecoveryRequest()
        } else {
            body = try await request.decodeJSON(NotificationRecoveryRequest.self, limit: Self.maxRecoveryBodyBytes)
        }
        return try await recovery.recover(since: body.since)
    }

    @Sendable func order(_ request: Request, context: StoreSyncRequestContext) async throws -> OrderLookupResponse {
        let id = try context.parameters.require("orderId")
        guard let order = try await orders.lookUp(id) else {
            throw ProblemError.notFound("the App Store knows no order \(id) of this app")
        }
        return order
    }

    @Sendable func testNotification(_ request: Request, context: StoreSyncRequestContext) async throws
        -> TestNotificationResponse
    {
        try await testNotifications.send()
    }
}
