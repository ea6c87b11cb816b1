public import Foundation
public import StoreSyncCore

/// The body of `GET /v1/admin/purchases/{originalTransactionId}`: who owns a purchase and
/// everything that happened to it.
public struct PurchaseHistory: Sendable, Hashable, Codable {
    /// The purchase.
    public var originalTransactionId: String
    /// The owning account; `nil` when no account owns it now.
    public var ownerAccountId: UUID?
    /// The App Store environment the purchase was made in.
    public var environment: AppStoreEnvironment?
    /// The chain's transactions.
    public var transactions: [TransactionRecord]
    /// The audit trail, oldest first.
    public var events: [PurchaseEvent]

    /// Creates a purchase history.
    ///
    /// - Parameters:
    ///   - originalTransactionId: The purchase.
    ///   - ownerAccountId: The owning account.
    ///   - environment: The App Store environment.
    ///   - transactions: The chain's transactions.
    ///   - events: The audit trail.
    public init(
        originalTransactionId: String,
        ownerAccountId: UUID? = nil,
        environment: AppStoreEnvironment? = nil,
        transactions: [TransactionRecord],
        events: [PurchaseEvent]
    ) {
        self.originalTransactionId = originalTransactionId
        self.ownerAccountId = ownerAccountId
        self.environment = environment
        self.transactions = transactions
        self.events = events
    }
}
