import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore

/// Account-linked lookups: the entitlement snapshot of an account (the hottest path: every
/// app launch asks) and the history of one purchase.
struct LookupService: Sendable {
    let pool: ConnectionPool
    let catalog: CatalogService
    let snapshots: SnapshotService
    let now: @Sendable () -> Date

    private let accounts = AccountRepository()
    private let transactions = TransactionRepository()
    private let ownership = OwnershipRepository()
    private let events = EventRepository()

    /// A snapshot's encoded body and its ETag (the account version and the catalog revision:
    /// either changing changes what the account is entitled to).
    struct SnapshotResponse: Sendable {
        let body: Data
        let etag: String
    }

    /// The account's snapshot; `nil` when the account does not exist. Served from the cache
    /// while the account version and the catalog are unchanged.
    func snapshot(of accountId: UUID) async throws -> SnapshotResponse? {
        let catalogState = catalog.currentState
        let now = now()
        if let cached = snapshots.cached(accountId: accountId, catalogRevision: catalogState.revision, at: now) {
            return SnapshotResponse(
                body: cached.body, etag: Self.etag(version: cached.version, catalogRevision: catalogState.revision))
        }
        // One statement reads the version and the ledger from one snapshot of the database, so
        // the ETag always names the data it describes.
        let loaded = try await pool.withConnection { try await LookupQuery.run(accountId, on: $0) }
        guard let (current, ledger) = loaded else { return nil }
        let signed = try snapshots.snapshot(
            accountId: accountId, version: current, ledger: ledger, catalog: catalogState.catalog, at: now)
        snapshots.store(signed, catalogRevision: catalogState.revision, at: now)
        return SnapshotResponse(body: signed.body, etag: Self.etag(version: current, catalogRevision: catalogState.revision))
    }

    /// The snapshot of the account a StoreKit 2 appAccountToken names.
    func snapshot(ofAppAccountToken token: UUID) async throws -> SnapshotResponse? {
        guard let account = try await pool.withConnection({ try await accounts.find(appAccountToken: token, on: $0) })
        else { return nil }
        return try await snapshot(of: account.accountId)
    }

    /// Owner, every version in every account, and every event of one purchase; `nil` if the
    /// server has never seen it.
    func history(of originalTransactionId: String) async throws -> PurchaseHistory? {
        try await pool.withTransaction(isolation: .repeatableRead) { connection in
            let owner = try await ownership.owner(of: originalTransactionId, on: connection)
            let versions = try await transactions.history(of: originalTransactionId, on: connection)
            let trail = try await events.events(of: originalTransactionId, on: connection)
            guard owner != nil || !versions.isEmpty else { return nil }
            return PurchaseHistory(
                originalTransactionId: originalTransactionId, ownerAccountId: owner?.accountId,
                environment: versions.first?.record.environment,
                transactions: versions.map(\.record), events: trail)
        }
    }

    static func etag(version: Int64, catalogRevision: String) -> String {
        "\"\(version)-\(catalogRevision)\""
    }
}
