import AppStoreVerification
import Foundation
import Logging
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore

/// Uploads and restores: everything is verified first, off the database, then applied in one
/// database transaction per call (retried on serialization failure and deadlock).
struct PurchaseSyncService: Sendable {
    let pool: ConnectionPool
    let verification: VerificationService
    let catalog: CatalogService
    let snapshots: SnapshotService
    let rules: OwnershipRules
    let maxRestoreEntries: Int
    let now: @Sendable () -> Date
    let logger: Logger

    /// `POST /v1/transactions`: one signed transaction (or one legacy receipt's entries).
    /// A background upload never moves a purchase; one owned elsewhere is refused.
    ///
    /// - Throws: ``RequestError``, ``VerificationError``, or ``SyncError/ownedByOtherAccount(reason:)``.
    func upload(_ request: UploadTransactionRequest, for device: DeviceIdentity) async throws -> SyncOutcome {
        let records: [TransactionRecord]
        switch (request.signedTransaction, request.receipt) {
        case (let jws?, nil):
            records = [try await verification.transaction(jws, field: "signedTransaction")]
        case (nil, let receipt?):
            records = try await verification.receipt(receipt, now: now())
        default:
            throw RequestError.invalid(field: "signedTransaction", detail: "send exactly one of signedTransaction and receipt")
        }
        let items = records.map { SyncItem.verified($0, entry: nil) }
        let outcome = try await sync(items, for: device.accountId, options: SyncOptions(userInitiated: false, dryRun: false))
        if records.count == 1, let verdict = outcome.verdicts.first, verdict.verdict == .ownedByOtherAccount {
            throw SyncError.ownedByOtherAccount(reason: verdict.reason ?? "the purchase is owned by another account")
        }
        return outcome
    }

    /// `POST /v1/restore`: every entry gets a verdict; only `userInitiated` may move purchases;
    /// `dryRun` answers the same and changes nothing.
    ///
    /// The account's ledger is read, with the digests of the texts it holds, while the entries
    /// are looked up in the memo and hashed: the texts the account holds are recognised from
    /// it, and the database transaction starts from it unless the account's version moved in
    /// between. On another instance a restore of a thousand known entries otherwise looked the
    /// texts up in a statement of their own and then read the ledger again under the lock
    /// (27–28 → 23.5–24 ms). Starting the read before the body arrived gained under a
    /// millisecond, not worth a database read for every malformed body.
    func restore(_ request: RestoreRequest, for device: DeviceIdentity) async throws -> SyncOutcome {
        guard request.entries.count <= maxRestoreEntries else {
            throw RequestError.invalid(field: "entries", detail: "at most \(maxRestoreEntries) entries per restore")
        }
        let accountId = device.accountId
        let current = Task { [pool] in
            try await pool.withConnection { try await LookupQuery.run([accountId], withDigests: true, on: $0)[accountId] }
        }
        defer { current.cancel() }
        var items = try await verification.restoreItems(request.entries) { presented in
            try await current.value?.heldVersions(among: presented) ?? [:]
        }
        let flags = (request.legacyFlags ?? [:]).filter(\.value).keys.sorted()
        items += flags.map { SyncItem.legacyFlag(productId: $0) }
        let options = SyncOptions(userInitiated: request.userInitiated ?? false, dryRun: request.dryRun ?? false)
        return try await sync(items, for: accountId, options: options, read: try await current.value)
    }

    /// Applies `items` in one database transaction and signs the account's snapshot after it.
    ///
    /// - Parameter read: The account's ledger read before the transaction, which starts from it
    ///   when the account's version has not moved since.
    private func sync(
        _ items: [SyncItem], for accountId: UUID, options: SyncOptions, read: LookupQuery.Found? = nil
    ) async throws -> SyncOutcome {
        let now = now()
        let catalog = catalog.current
        let result: SyncTransaction.Result
        do {
            result = try await pool.withRetryingTransaction(isolation: .readCommitted) { connection in
                let transaction = SyncTransaction(
                    connection: connection, presenter: accountId, options: options, rules: rules, catalog: catalog,
                    now: now, read: read,
                    verifyUnclaimed: { [verification] kind, payload in await verification.unclaimed(kind, payload) })
                let result = try await transaction.run(items)
                if options.dryRun { throw DryRunRollback(result: result) }
                return result
            }
        } catch let dryRun as DryRunRollback {
            result = dryRun.result
        }
        if !options.dryRun { snapshots.invalidate(result.changedAccounts) }
        SyncMetrics.record(result.verdicts, dryRun: options.dryRun)
        let snapshot = try snapshots.snapshot(
            accountId: accountId, version: result.version, ledger: result.ledger, catalog: catalog, at: now)
        return SyncOutcome(verdicts: result.verdicts, snapshot: snapshot, changedAccounts: result.changedAccounts)
    }
}

/// Rolls a dry run's database transaction back while carrying its answer out.
private struct DryRunRollback: Error {
    let result: SyncTransaction.Result
}
