package import Foundation
package import PostgresLibPQ
package import StoreSyncCore

/// The writes of a restore whose purchases no account holds yet, alone: the owner rows naming
/// the account, the versions with their signed texts, one `purchaseClaimed` event each and the
/// account's version bump, by the same repositories and from the same plan as
/// ``PurchaseSyncService``'s restore, with nothing verified, decided or read around them.
///
/// `package`, not public: `storesync-bench` times exactly these statements as the database's
/// floor for a restore of new entries, and the floor follows whatever the restore writes.
package enum FirstClaimWrites {
    /// Writes `records` as first claims of `accountId`, in the order a restore writes them.
    ///
    /// - Parameters:
    ///   - records: Versions of purchases no account holds, with their signed texts (split and
    ///     hashed, as a restore has them from recalling its entries before its transaction,
    ///     when ``SignedTextSplitter`` made them; any other text is hashed in it).
    ///   - accountId: The claiming account; it must exist.
    ///   - now: The time of the restore.
    ///   - queuesWebhookDeliveries: Whether each event queues a webhook delivery, as a server
    ///     with `STORESYNC_WEBHOOK_URL` does.
    ///   - connection: A connection inside the database transaction to write in. These are its
    ///     last statements: COMMIT goes with the last of them, as with a restore's.
    /// - Throws: ``PostgresLibPQ/PostgresError`` (a purchase some account holds already is a
    ///   unique violation in none of these statements: its owner row is simply left alone).
    package static func store(
        _ records: [TransactionRecord], for accountId: UUID, at now: Date, queuesWebhookDeliveries: Bool,
        on connection: PostgresConnection
    ) async throws {
        let chains = SyncTransaction.chains(of: records.map { SyncItem.verified($0, entry: nil) })
        var plan = SyncTransaction.Plan()
        for (id, chain) in SyncTransaction.inPlanOrder(chains) {
            plan.apply(
                .keepHere(claim: .firstPresented), chain: id, records: chain, owner: nil, presenter: accountId,
                before: Ledger(), at: now)
        }
        // Encoded while the owner rows are inserted, as a restore encodes them while PostgreSQL
        // decides the owners.
        let versions = plan.versions
        async let encoded = TransactionRepository.encodeInsert(versions)
        try await OwnershipRepository().insertMissing(
            plan.newOwners.map { ($0.originalTransactionId, chains[$0.originalTransactionId]![0].environment, $0) },
            on: connection)
        _ = try await TransactionRepository().insert(versions, encoded: await encoded, on: connection)
        _ = try await EventRepository(queuesWebhookDeliveries: queuesWebhookDeliveries)
            .append(plan.events, bumpingVersionsOf: plan.changed, endingTransaction: true, on: connection)
    }
}
