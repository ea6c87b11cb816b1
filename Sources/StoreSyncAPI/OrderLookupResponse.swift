public import Foundation
public import StoreSyncCore

/// The body of `GET /v1/admin/orders/{orderId}`: the order id from a customer's App Store
/// receipt e-mail, its transactions as Apple states them, and the accounts that hold them.
public struct OrderLookupResponse: Sendable, Hashable, Codable {
    /// One purchase of the order and who holds it here.
    public struct Purchase: Sendable, Hashable, Codable {
        /// The purchase.
        public var originalTransactionId: String
        /// The owning account; `nil` when no account owns it.
        public var ownerAccountId: UUID?
        /// Every account holding a copy (more than the owner under the `share` policy).
        public var holders: [UUID]

        /// Describes a purchase.
        ///
        /// - Parameters:
        ///   - originalTransactionId: The purchase.
        ///   - ownerAccountId: Its owner.
        ///   - holders: The accounts holding it.
        public init(originalTransactionId: String, ownerAccountId: UUID?, holders: [UUID]) {
            self.originalTransactionId = originalTransactionId
            self.ownerAccountId = ownerAccountId
            self.holders = holders
        }
    }

    /// An account holding a purchase of the order, and what it is entitled to now.
    public struct Account: Sendable, Hashable, Codable {
        /// The account.
        public var accountId: UUID
        /// Its entitlements now, from every purchase it holds.
        public var entitlements: [Entitlement]

        /// Describes an account.
        ///
        /// - Parameters:
        ///   - accountId: The account.
        ///   - entitlements: Its entitlements.
        public init(accountId: UUID, entitlements: [Entitlement]) {
            self.accountId = accountId
            self.entitlements = entitlements
        }
    }

    /// The order id.
    public var orderId: String
    /// The environment whose App Store knows the order.
    public var environment: AppStoreEnvironment
    /// The order's transactions as Apple signed them (without the JWS).
    public var transactions: [TransactionRecord]
    /// Its purchases and their holders.
    public var purchases: [Purchase]
    /// The accounts holding them.
    public var accounts: [Account]
    /// Signed transactions Apple returned that failed verification; they were left out.
    public var skippedItems: Int

    /// Describes an order.
    ///
    /// - Parameters:
    ///   - orderId: The order id.
    ///   - environment: The environment that knows it.
    ///   - transactions: Its transactions.
    ///   - purchases: Its purchases and holders.
    ///   - accounts: The holding accounts.
    ///   - skippedItems: Items refused.
    public init(
        orderId: String, environment: AppStoreEnvironment, transactions: [TransactionRecord], purchases: [Purchase],
        accounts: [Account], skippedItems: Int
    ) {
        self.orderId = orderId
        self.environment = environment
        self.transactions = transactions
        self.purchases = purchases
        self.accounts = accounts
        self.skippedItems = skippedItems
    }
}
