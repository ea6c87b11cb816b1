public import Foundation

/// Which notifications Get Notification History returns.
public struct AppStoreNotificationHistoryQuery: Sendable, Hashable {
    /// The start of the span, inclusive; Apple keeps 180 days.
    public var startDate: Date
    /// The end of the span; after `startDate`.
    public var endDate: Date
    /// Only the notifications of the customer of this transaction id.
    public var transactionId: String?
    /// Only the notifications that have not reached the server (including those Apple is
    /// still retrying).
    public var onlyFailures: Bool

    /// Describes a query.
    ///
    /// - Parameters:
    ///   - startDate: The start of the span.
    ///   - endDate: The end of the span.
    ///   - transactionId: Only this customer's notifications.
    ///   - onlyFailures: Only undelivered notifications.
    public init(startDate: Date, endDate: Date, transactionId: String? = nil, onlyFailures: Bool = false) {
        self.startDate = startDate
        self.endDate = endDate
        self.transactionId = transactionId
        self.onlyFailures = onlyFailures
    }
}
