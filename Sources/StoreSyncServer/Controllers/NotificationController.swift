import Hummingbird
import StoreSyncAPI

/// `POST /v1/notifications/appstore`: App Store Server Notifications V2.
struct NotificationController {
    let notifications: NotificationService
    let maxBodyBytes: Int

    /// The largest notification body taken. Anyone may post here, so the limit stays far below
    /// the device routes'; Apple's signed payloads (three certificate chains, two nested JWS)
    /// are tens of kilobytes.
    static let largestNotification = 256 * 1024

    /// The answer Apple receives; any 200 means "delivered".
    struct Receipt: ResponseEncodable {
        let status: String
    }

    func addRoutes(to group: RouterGroup<StoreSyncRequestContext>) {
        group.post("notifications/appstore", use: receive)
    }

    @Sendable func receive(_ request: Request, context: StoreSyncRequestContext) async throws -> Receipt {
        let body = try await request.decodeJSON(NotificationRequest.self, limit: maxBodyBytes)
        return Receipt(status: try await notifications.receive(body).rawValue)
    }
}
