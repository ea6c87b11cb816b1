/// What ``PurchaseCoordinator/purchase(_:)`` ended with, for the app to show.
public enum PurchaseOutcome: Sendable {
    /// The user paid and the purchase is kept and finished: acknowledged by the server (the
    /// entitlements include it), queued in the outbox while offline (granted once uploaded),
    /// or stored until sign-in.
    case purchased(RecordOutcome, entitlements: EntitlementStatus)
    /// Waiting for approval (Ask to Buy): it arrives later in
    /// ``PurchaseCoordinator/transactionUpdates`` once approved.
    case pending
    /// The user cancelled; nothing was bought.
    case cancelled
    /// StoreKit could not make the purchase (its error), or the user paid and the purchase
    /// could not be kept (a ``StoreSyncClientError``): it was then left unfinished, and
    /// StoreKit delivers it again at the next launch.
    case failed(any Error)
    /// The user paid, and the transaction can never be kept for this account as it is, so it
    /// was finished: StoreKit does not deliver it again. Another account owns the purchase
    /// (``StoreSyncClientError/ownedByOtherAccount(problemType:detail:)``: the account its
    /// `appAccountToken` names, or the first to present it; it stays on this device for a
    /// Restore Purchases the user may ask for, which moves it if the server's transfer policy
    /// allows), the server does not take its App Store environment (an `environment-refused`
    /// ``StoreSyncClientError/invalidInput(_:)``), or neither StoreKit nor the server could
    /// verify it (a forgery). The server's refusals are also kept in
    /// ``StoreSyncClient/rejectedUploads``.
    case rejected(StoreSyncClientError)
}
