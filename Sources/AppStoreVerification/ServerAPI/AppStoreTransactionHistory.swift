/// A customer's transactions from Get Transaction History, verified: one page, or every page
/// a collecting call fetched.
public struct AppStoreTransactionHistory: Sendable, Hashable {
    /// The transactions that passed verification, in Apple's order.
    public var transactions: [VerifiedTransaction]
    /// The signed transactions that did not.
    public var skipped: [AppStoreSkippedItem]
    /// Apple's `revision` after the last page: pass it to fetch the next page, or, once
    /// ``hasMore`` is false, to fetch later only what changed since.
    public var revision: String?
    /// Whether Apple has more pages after ``revision``.
    public var hasMore: Bool

    /// Describes a history.
    ///
    /// - Parameters:
    ///   - transactions: The verified transactions.
    ///   - skipped: The refused items.
    ///   - revision: The token after the last page.
    ///   - hasMore: Whether more pages follow.
    public init(
        transactions: [VerifiedTransaction], skipped: [AppStoreSkippedItem] = [], revision: String?, hasMore: Bool
    ) {
        self.transactions = transactions
        self.skipped = skipped
        self.revision = revision
        self.hasMore = hasMore
    }
}

extension AppStoreTransactionHistory: AppStorePagedResult {
    var continuation: String? { revision }

    mutating func append(contentsOf next: Self) {
        transactions += next.transactions
        skipped += next.skipped
        revision = next.revision ?? revision
        hasMore = next.hasMore
    }
}
