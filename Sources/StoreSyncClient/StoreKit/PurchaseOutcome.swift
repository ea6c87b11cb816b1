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
}
