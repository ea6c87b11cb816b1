import AppStoreVerification
import Foundation
import Logging
import PostgresLibPQ
import StoreSyncCore

/// Reconciles a purchase with the App Store: pulls its transaction history and subscription
/// status from the App Store Server API and merges them through ``AppleVersionsWriter``, the
/// path Server Notifications take, so the same ledger rules and events apply.
struct ReconciliationService: Sendable {
    let pool: ConnectionPool
    let apple: AppStoreAPIClients
    let snapshots: SnapshotService
    let logger: Logger
    let now: @Sendable () -> Date
    /// The path Server Notifications take, with the server's event repository.
    let writer: AppleVersionsWriter

    private let ownership = OwnershipRepository()
    private let reconciliations = ReconciliationRepository()

    /// What a refresh found and changed.
    struct Refreshed: Sendable {
        let originalTransactionId: String
        /// The environment whose API answered.
        let environment: AppStoreEnvironment
        let applied: AppliedVersions
        /// Signed items Apple returned that failed verification.
        let skippedItems: Int
    }

    /// Pulls the purchase's history and status and merges them into every account holding it.
    ///
    /// The purchase's stored environment picks the API; an unknown purchase is asked of
    /// production, then of sandbox.
    ///
    /// - Parameter originalTransactionId: The purchase.
    /// - Returns: What changed; `nil` when Apple knows no such purchase (or none of its items
    ///   verify).
    /// - Throws: ``RequestError`` for an id of the wrong shape, ``AppStoreAPIFailure``.
    func refresh(_ originalTransactionId: String) async throws -> Refreshed? {
        let chain = try AppStoreIds.transactionId(originalTransactionId, field: "originalTransactionId")
        let stored = try await pool.withConnection { try await ownership.environment(of: chain, on: $0) }
        let found: (answer: (AppleVersions, Int), environment: AppStoreEnvironment)?
        if let stored {
            let client = try apple.client(for: stored)
            do {
                found = try await versions(of: chain, from: client).map { ($0, client.configuration.environment) }
            } catch .notFound {
                found = nil
            } catch {
                throw AppStoreAPIFailure.apple(error)
            }
        } else {
            found = try await apple.firstKnowing { client throws(AppStoreServerAPIError) in
                try await versions(of: chain, from: client)
            }
        }
        guard let ((versions, skipped), environment) = found else { return nil }
        let applied = try await pool.withRetryingTransaction { connection in
            let applied = try await writer.write(versions, on: connection)
            try await reconciliations.markReconciled(chain, at: now(), on: connection)
            return applied
        }
        snapshots.invalidate(applied.changedAccounts)
        logger.info(
            "purchase reconciled with the App Store Server API",
            metadata: [
                "appstore.original_transaction_id": "\(chain)", "appstore.environment": "\(environment.appleName)",
                "storesync.versions_added": "\(applied.inserted.count)", "storesync.events": "\(applied.events.count)",
                "appstore.skipped_items": "\(skipped)",
            ])
        return Refreshed(originalTransactionId: chain, environment: environment, applied: applied, skippedItems: skipped)
    }

    /// Apple's versions of one purchase from one environment's API, and how many items were
    /// refused; `nil` when Apple lists nothing of the purchase that verifies.
    private func versions(of chain: String, from client: AppStoreServerAPIClient)
        async throws(AppStoreServerAPIError) -> (AppleVersions, Int)?
    {
        let history = try await fullHistory(of: chain, from: client)
        let listed = history.transactions.filter { $0.record.originalTransactionId == chain }
        var skipped = history.skipped.count
        var status: AppStoreSubscriptionStatuses.Item?
        if listed.contains(where: { $0.record.productType == .autoRenewable }) {
            let statuses = try await client.subscriptionStatuses(for: chain)
            skipped += statuses.skipped.count
            status = statuses.groups.lazy.flatMap(\.items).first { $0.transaction.record.originalTransactionId == chain }
        }
        // Nothing verified of the purchase: this environment does not know it (a production API
        // answering with sandbox items, which its verifier refuses, knows it no better).
        guard !listed.isEmpty || status != nil else { return nil }
        let verified = listed + (status.map { [$0.transaction] } ?? [])
        let renewals = verified.filter { $0.payload.transactionReason == .renewal }.map(\.record.transactionId)
        let versions = AppleVersions(
            originalTransactionId: chain, transactions: Ledger(records: verified.map(\.record)).records,
            renewalInfo: status?.renewalInfo?.renewalInfo,
            source: .appStoreServerAPI(
                renewals: Set(renewals),
                expiredTransactionId: status?.status == .expired ? status?.transaction.record.transactionId : nil))
        return (versions, skipped)
    }

    /// Every page of the customer's history, however many collecting calls it takes (bounded).
    private func fullHistory(of chain: String, from client: AppStoreServerAPIClient)
        async throws(AppStoreServerAPIError) -> AppStoreTransactionHistory
    {
        var history = try await client.transactionHistory(for: chain)
        var calls = 1
        while history.hasMore, calls < Self.maximumHistoryCalls {
            let next = try await client.transactionHistory(for: chain, after: history.revision)
            history.transactions += next.transactions
            history.skipped += next.skipped
            history.revision = next.revision ?? history.revision
            history.hasMore = next.hasMore
            calls += 1
        }
        return history
    }

    /// Collecting calls per refresh at most: each fetches up to the client's page limit.
    static let maximumHistoryCalls = 10
}
