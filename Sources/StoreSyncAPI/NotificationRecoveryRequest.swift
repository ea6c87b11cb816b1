public import Foundation
import StoreSyncCore

/// The body of `POST /v1/admin/notifications/recover`.
public struct NotificationRecoveryRequest: Sendable, Hashable, Codable {
    /// Replay notifications signed from this moment on (within Apple's 180-day history); absent:
    /// from where the last recovery of each environment ended.
    public var since: Date?

    /// Describes a recovery.
    ///
    /// - Parameter since: Where to start; `nil` for where the last recovery ended.
    public init(since: Date? = nil) {
        self.since = since?.roundedToMilliseconds
    }
}
