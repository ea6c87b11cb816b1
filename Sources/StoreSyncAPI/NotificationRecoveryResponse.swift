public import Foundation
public import StoreSyncCore

/// The body of `POST /v1/admin/notifications/recover`: one pass through Apple's notification
/// history per environment the server takes.
public struct NotificationRecoveryResponse: Sendable, Hashable, Codable {
    /// One environment's pass.
    public struct Pass: Sendable, Hashable, Codable {
        /// The environment whose history was read.
        public var environment: AppStoreEnvironment
        /// The start of the span read.
        public var since: Date
        /// Its end.
        public var until: Date
        /// Notifications that verified and went through the notification path, by what became
        /// of them: `processed`, `duplicate` (already processed), `unclaimed`, `informational`.
        public var outcomes: [String: Int]
        /// Items that failed verification (another app, an untrusted signature, malformed); they
        /// were logged and left out.
        public var skippedItems: Int

        /// Describes a pass.
        ///
        /// - Parameters:
        ///   - environment: The environment.
        ///   - since: The start of the span.
        ///   - until: Its end.
        ///   - outcomes: Notifications by outcome.
        ///   - skippedItems: Items refused.
        public init(
            environment: AppStoreEnvironment, since: Date, until: Date, outcomes: [String: Int], skippedItems: Int
        ) {
            self.environment = environment
            self.since = since.roundedToMilliseconds
            self.until = until.roundedToMilliseconds
            self.outcomes = outcomes
            self.skippedItems = skippedItems
        }
    }

    /// The passes, one per environment.
    public var passes: [Pass]

    /// Describes a recovery.
    ///
    /// - Parameter passes: One pass per environment.
    public init(passes: [Pass]) {
        self.passes = passes
    }
}
