import AppStoreVerification
import Foundation
import Logging
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore

/// Checks the whole notification loop: asks Apple to send a `TEST` notification to the app's
/// notification URL, then waits, within a bound, until a server of this deployment (any
/// instance: they share the database) has recorded it.
struct TestNotificationService: Sendable {
    let pool: ConnectionPool
    let apple: AppStoreAPIClients
    /// The longest wait for the notification.
    let wait: Duration
    let logger: Logger

    /// How often the database is asked whether the notification arrived.
    static let pollInterval = Duration.milliseconds(200)

    private let notifications = NotificationRepository()

    /// Requests a test notification in the server's own environment and reports whether it
    /// arrived.
    ///
    /// - Returns: Apple's token, the notification's UUID, whether it arrived and Apple's
    ///   delivery attempts.
    /// - Throws: ``AppStoreAPIFailure``.
    func send() async throws -> TestNotificationResponse {
        let client = try apple.configured()[0]
        let token: String
        do {
            token = try await client.requestTestNotification()
        } catch {
            throw AppStoreAPIFailure.apple(error)
        }
        let deadline = ContinuousClock.now + wait
        var status: AppStoreTestNotificationStatus?
        var arrived = false
        while !arrived {
            if status?.notification == nil, let latest = try? await client.testNotificationStatus(token) {
                status = latest
            }
            if let uuid = status?.notification?.payload.notificationUUID {
                arrived = try await pool.withConnection { try await notifications.isProcessed(uuid, on: $0) }
            }
            guard !arrived, ContinuousClock.now < deadline else { break }
            try await Task.sleep(for: Self.pollInterval)
        }
        if let latest = try? await client.testNotificationStatus(token) { status = latest }
        logger.notice(
            "App Store test notification \(arrived ? "arrived" : "did not arrive")",
            metadata: ["appstore.environment": "\(client.configuration.environment.appleName)"])
        return TestNotificationResponse(
            environment: client.configuration.environment, testNotificationToken: token,
            notificationUUID: status?.notification?.payload.notificationUUID, arrived: arrived,
            sendAttempts: (status?.sendAttempts ?? []).map {
                .init(attemptDate: $0.attemptDate, result: $0.sendAttemptResult.rawValue)
            })
    }
}
