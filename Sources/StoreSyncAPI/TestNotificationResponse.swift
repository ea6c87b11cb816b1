public import Foundation
public import StoreSyncCore

/// The body of `POST /v1/admin/appstore/test-notification`: whether the `TEST` notification
/// Apple was asked to send reached this server.
public struct TestNotificationResponse: Sendable, Hashable, Codable {
    /// One delivery attempt, as Apple reports it.
    public struct Attempt: Sendable, Hashable, Codable {
        /// When Apple tried.
        public var attemptDate: Date
        /// Apple's result, e.g. `SUCCESS`, `NO_RESPONSE`.
        public var result: String

        /// Describes an attempt.
        ///
        /// - Parameters:
        ///   - attemptDate: When.
        ///   - result: Apple's result.
        public init(attemptDate: Date, result: String) {
            self.attemptDate = attemptDate.roundedToMilliseconds
            self.result = result
        }
    }

    /// The environment asked.
    public var environment: AppStoreEnvironment
    /// Apple's token for the test.
    public var testNotificationToken: String
    /// The test notification's UUID, once Apple reported it.
    public var notificationUUID: UUID?
    /// Whether a server of this deployment received and recorded it within the wait.
    public var arrived: Bool
    /// Apple's delivery attempts so far.
    public var sendAttempts: [Attempt]

    /// Describes a test.
    ///
    /// - Parameters:
    ///   - environment: The environment asked.
    ///   - testNotificationToken: Apple's token.
    ///   - notificationUUID: The notification's UUID.
    ///   - arrived: Whether it was recorded.
    ///   - sendAttempts: Apple's attempts.
    public init(
        environment: AppStoreEnvironment, testNotificationToken: String, notificationUUID: UUID?, arrived: Bool,
        sendAttempts: [Attempt]
    ) {
        self.environment = environment
        self.testNotificationToken = testNotificationToken
        self.notificationUUID = notificationUUID
        self.arrived = arrived
        self.sendAttempts = sendAttempts
    }
}
