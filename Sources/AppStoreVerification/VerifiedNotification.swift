public import AppStorePayloads
public import StoreSyncCore

/// A Server Notification V2 that passed verification, with its nested signed transaction
/// and renewal info verified too.
public struct VerifiedNotification: Sendable, Hashable {
    /// Apple's notification payload as signed.
    public var payload: NotificationPayload
    /// The verified `data.signedTransactionInfo`, when present.
    public var transaction: VerifiedTransaction?
    /// The verified `data.signedRenewalInfo`, when present.
    public var renewalInfo: VerifiedRenewalInfo?
    /// `jws`, or `unverifiedJWS` when the development switch let the outer payload through.
    public var evidence: Evidence

    /// Assembles a verified notification.
    ///
    /// - Parameters:
    ///   - payload: Apple's payload.
    ///   - transaction: The verified nested transaction.
    ///   - renewalInfo: The verified nested renewal info.
    ///   - evidence: What vouches for the outer payload.
    public init(
        payload: NotificationPayload,
        transaction: VerifiedTransaction? = nil,
        renewalInfo: VerifiedRenewalInfo? = nil,
        evidence: Evidence = .jws
    ) {
        self.payload = payload
        self.transaction = transaction
        self.renewalInfo = renewalInfo
        self.evidence = evidence
    }
}
