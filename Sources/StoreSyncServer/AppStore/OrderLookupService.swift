import AppStoreVerification
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore

/// Support's way from the order id on a customer's App Store receipt e-mail to the account:
/// Apple's Look Up Order ID gives the order's transactions, the database who holds them and
/// what those accounts are entitled to now.
struct OrderLookupService: Sendable {
    let pool: ConnectionPool
    let apple: AppStoreAPIClients
    let catalog: CatalogService
    let now: @Sendable () -> Date

    private let ownership = OwnershipRepository()
    private let transactions = TransactionRepository()

    /// Looks an order up in production, then in sandbox, as Apple recommends.
    ///
    /// - Parameter orderId: The order id.
    /// - Returns: The order; `nil` when no environment knows it (or none of its transactions
    ///   verified).
    /// - Throws: ``RequestError`` for an id of the wrong shape, ``AppStoreAPIFailure``.
    func lookUp(_ orderId: String) async throws -> OrderLookupResponse? {
        let id = try AppStoreIds.orderId(orderId)
        let found = try await apple.firstKnowing { client throws(AppStoreServerAPIError) -> AppStoreOrderLookup? in
            let lookup = try await client.lookUpOrder(id)
            return lookup.isValid && !lookup.transactions.isEmpty ? lookup : nil
        }
        guard let (lookup, environment) = found else { return nil }
        let records = lookup.transactions.map { verified in
            var record = verified.record
            record.signedTransaction = nil
            return record
        }
        let chains = Set(records.map(\.originalTransactionId)).sorted()
        let catalog = catalog.current
        let at = now()
        return try await pool.withTransaction(isolation: .repeatableRead) { connection in
            var purchases: [OrderLookupResponse.Purchase] = []
            var holding: Set<UUID> = []
            for chain in chains {
                let holders = try await transactions.holders(of: chain, on: connection)
                let owner = try await ownership.owner(of: chain, on: connection)?.accountId
                purchases.append(.init(originalTransactionId: chain, ownerAccountId: owner, holders: holders))
                holding.formUnion(holders)
            }
            var accounts: [OrderLookupResponse.Account] = []
            for account in holding.sorted(by: { $0.uuidString < $1.uuidString }) {
                let ledger = try await transactions.ledger(of: account, on: connection)
                accounts.append(.init(accountId: account, entitlements: entitlements(ledger: ledger, catalog: catalog, at: at)))
            }
            return OrderLookupResponse(
                orderId: id, environment: environment, transactions: records, purchases: purchases, accounts: accounts,
                skippedItems: lookup.skipped.count)
        }
    }
}
