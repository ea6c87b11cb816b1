/// What a purchase sheet ended with, as StoreKit reports it (`Product.PurchaseResult`).
public enum PurchaseAttempt<Delivery: TransactionDelivery>: Sendable {
    /// The user paid: here is the transaction, not finished yet.
    case purchased(Delivery)
    /// The purchase waits for approval (Ask to Buy, Strong Customer Authentication); the
    /// transaction arrives later through ``TransactionSource/transactionUpdates()``.
    case pending
    /// The user dismissed the sheet.
    case cancelled
}
