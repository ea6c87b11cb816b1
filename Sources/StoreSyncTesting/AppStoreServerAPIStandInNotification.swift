public import AppStoreVerification
public import Foundation
public import StoreSyncCore

/// A notification in the stand-in's notification history, signed when it is served.
public struct AppStoreServerAPIStandInNotification: Sendable {
    /// What happened.
    public var type: NotificationType
    /// The detail.
    public var subtype: NotificationSubtype?
    /// The notification's id.
    public var uuid: UUID
    /// When Apple signed it; what notification history filters on.
    public var signedDate: Date
    /// The environment in its `data`.
    public var environment: AppStoreEnvironment
    /// The transaction nested as `signedTransactionInfo`.
    public var transaction: TransactionRecord?
    /// The renewal info nested as `signedRenewalInfo`.
    public var renewalInfo: RenewalInfo?
    /// Apple's delivery attempts; the last one's result decides `onlyFailures`.
    public var sendAttempts: [AppStoreSendAttempt]

    /// Describes a notification.
    ///
    /// - Parameters:
    ///   - type: What happened.
    ///   - subtype: The detail.
    ///   - uuid: The id.
    ///   - signedDate: When it was signed.
    ///   - environment: The environment.
    ///   - transaction: The nested transaction.
    ///   - renewalInfo: The nested renewal info.
    ///   - sendAttempts: The delivery attempts; by default one that failed with `NO_RESPONSE`,
    ///     the notification a server missed.
    public init(
        type: NotificationType,
        subtype: NotificationSubtype? = nil,
        uuid: UUID = UUID(),
        signedDate: Date,
        environment: AppStoreEnvironment = .sandbox,
        transaction: TransactionRecord? = nil,
        renewalInfo: RenewalInfo? = nil,
        sendAttempts: [AppStoreSendAttempt]? = nil
    ) {
        self.type = type
        self.subtype = subtype
        self.uuid = uuid
        self.signedDate = signedDate
        self.environment = environment
        self.transaction = transaction
        self.renewalInfo = renewalInfo
        self.sendAttempts = sendAttempts ?? [AppStoreSendAttempt(attemptDate: signedDate, sendAttemptResult: .noResponse)]
    }

    /// Whether no attempt reached the server.
    var undelivered: Bool { sendAttempts.last?.sendAttemptResult != .success }
}
