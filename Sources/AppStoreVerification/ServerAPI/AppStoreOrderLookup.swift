/// An order's transactions from Look Up Order ID, verified.
public struct AppStoreOrderLookup: Sendable, Hashable {
    /// Whether Apple knows the order id for this app (`status` 0); an invalid order has no
    /// transactions.
    public var isValid: Bool
    /// The order's transactions that passed verification.
    public var transactions: [VerifiedTransaction]
    /// The signed transactions that did not.
    public var skipped: [AppStoreSkippedItem]

    /// Describes a lookup.
    ///
    /// - Parameters:
    ///   - isValid: Whether the order id is valid.
    ///   - transactions: The verified transactions.
    ///   - skipped: The refused items.
    public init(isValid: Bool, transactions: [VerifiedTransaction], skipped: [AppStoreSkippedItem] = []) {
        self.isValid = isValid
        self.transactions = transactions
        self.skipped = skipped
    }
}
