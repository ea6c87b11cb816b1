import AppStoreVerification
import Foundation
import Logging
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore

/// Uploads and restores, each one sequence of steps: check the request; verify what it
/// presents, off the database; then, in one database transaction (retried on serialization
/// failure and deadlock), lock the account, decide where each purchase goes, plan the writes
/// and write them; and sign the account's snapshot after.
struct PurchaseSyncService: Sendable {
    let pool: ConnectionPool
    let verification: VerificationService
    let catalog: CatalogService
    let snapshots: SnapshotService
    let rules: OwnershipRules
    let events: EventRepository
    let maxRestoreEntries: Int
    let now: @Sendable () -> Date
    let logger: Logger

    /// `POST /v1/transactions`: one signed transaction (or one legacy receipt's entries).
    /// A background upload never moves a purchase; one owned elsewhere is refused. A signed
    /// transaction from an environment this server does not take is refused for its environment
    /// (``VerificationError/environmentRefused(field:detail:)``, final, unlike a text that does not
    /// verify), naming why; a receipt's entries get a verdict each.
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
        let items = records.map { verification.admit($0, entry: nil) }
        if request.signedTransaction != nil, case .rejected(_, _, let reason) = items.first {
            throw VerificationError.environmentRefused(field: "signedTransaction", detail: reason)
        }
        let options = SyncOptions(userInitiated: false, dryRun: false)
        let outcome = try await sync(
            items, for: device.accountId, options: options, startingFrom: nil)
        if records.count == 1, let verdict = outcome.verdicts.first, verdict.verdict == .ownedByOtherAccount {
            throw SyncError.ownedByOtherAccount(reason: verdict.reason ?? "the purchase is owned by another account")
        }
        return outcome
    }

    /// `POST /v1/restore`: every entry gets a verdict; only `userInitiated` may move purchases;
    /// `dryRun` answers the same and changes nothing.
    ///
    /// The verdicts come in the request's order: one per entry, one per in-app purchase of the
    /// app receipt (StoreKit 1 apps; verified with Apple as an upload's receipt is, under the
    /// same environment rule), then those of the legacy flags. A receipt Apple refuses, or
    /// cannot be asked about, fails the whole restore before anything changes, as it fails an
    /// upload.
    ///
    /// Legacy flags are read only for products the catalog defines: the flags naming others are
    /// dropped under one verdict, so however many a request carries, the work and the answer
    /// stay bounded by the catalog.
    ///
    /// The request's signed texts (most of a large restore's memory) are let go as soon as they
    /// are stored and answered, by a task of their own while the answer goes out.
    ///
    /// What the account holds is read while the body is decoded: a thousand entries are
    /// megabytes to read, and the restore would otherwise wait for the read after recalling
    /// them. A body refused on the way wastes one indexed read of the device's own account.
    ///
    /// - Parameters:
    ///   - device: The device restoring.
    ///   - decode: Reads the request's body, taking at most the entries it is given.
    /// - Throws: ``RequestError`` when the request has too many entries; ``VerificationError``
    ///   when the receipt is refused or Apple does not answer; whatever `decode` throws.
    func restore(
        for device: DeviceIdentity, decoding decode: (_ maxEntries: Int) async throws -> RestoreRequest
    ) async throws -> SyncOutcome {
        async let read = readHoldings(of: device.accountId)
        let request = try await decode(maxRestoreEntries)
        // The stream refuses one too many as it starts; a body that is not a top-level object is
        // decoded whole, and counted here.
        guard request.entries.count <= maxRestoreEntries else { throw RequestError.tooManyEntries(limit: maxRestoreEntries) }
        // Apple is asked about the receipt while the memo settles the texts this process
        // verified and hashes the others; verifying the rest needs the holdings. The
        // transaction starts from the same read when the account has not changed since.
        let options = SyncOptions(userInitiated: request.userInitiated ?? false, dryRun: request.dryRun ?? false)
        let flags = Self.legacyFlagItems(request.legacyFlags ?? [:], catalog: catalog.current)
        let receipt = request.receipt
        let entries = request.entries
        _ = consume request
        async let fromReceipt = receiptItems(receipt)
        let recalled = await verification.recall(consume entries)
        let holdings = try await read
        let (verified, learned) = await verification.verify(consume recalled, against: holdings)
        var items = consume verified
        items += try await fromReceipt
        items += flags
        // The memo learns the texts while the transaction stores them, not before it.
        return try await sync(
            consume items, for: device.accountId, options: options, startingFrom: holdings,
            whileStoring: { verification.remember(learned) })
    }

    /// The items of an app receipt's in-app purchases, each admitted or rejected by the
    /// environment rule; none without a receipt.
    private func receiptItems(_ receipt: String?) async throws -> [SyncItem] {
        guard let receipt else { return [] }
        return try await verification.receipt(receipt, now: now()).map { verification.admit($0, entry: nil) }
    }

    /// The items of the flags set to true: one per product the catalog defines, in product id
    /// order, then one for all the others if any.
    static func legacyFlagItems(_ flags: [String: Bool], catalog: Catalog) -> [SyncItem] {
        var known: [String] = []
        var unknown = 0
        for (productId, isSet) in flags where isSet {
            if catalog[productId] == nil { unknown += 1 } else { known.append(productId) }
        }
        let items = known.sorted().map { SyncItem.legacyFlag(productId: $0) }
        return unknown == 0 ? items : items + [.unknownLegacyFlags(count: unknown)]
    }

    /// What the account holds now, with the digests of its verified texts; `nil` when there is
    /// no such account.
    private func readHoldings(of accountId: UUID) async throws -> AccountHoldings? {
        try await pool.withConnection { try await LookupQuery.run([accountId], withDigests: true, on: $0)[accountId] }
    }

    /// Applies verified `items` in one database transaction, and answers with the account's
    /// signed snapshot. A dry run's transaction rolls back: it runs every step, keeps nothing,
    /// and answers an unsigned preview (a signature only ever covers stored state).
    ///
    /// The answer is made while the transaction's last statement runs (the events, the version
    /// bumps and COMMIT, in one round trip): this server has nothing else to do meanwhile, and a
    /// thousand purchases' snapshot takes ~2 ms to derive and sign, which a restore would
    /// otherwise add after the commit. Everything it says is known by then: the ledger the
    /// writes leave, and the version the bump gives (the presenter's row is locked, so it goes
    /// up by exactly one; debug builds check it against the bump's). It leaves this function
    /// only once the transaction committed; an attempt that fails or retries throws its answer
    /// away.
    ///
    /// - Parameters:
    ///   - read: What the account held when read before the transaction, if it was; the
    ///     transaction starts from it when the account's version has not moved since.
    ///   - whileStoring: Work done beside the versions insert, PostgreSQL's longest statement,
    ///     while this server has a core to spare; not beside deciding the owners, where the
    ///     insert is encoded and a third job on two cores delays the owner rows' statement. Run
    ///     by every attempt that gets that far, so it must be safe to repeat.
    private func sync(
        _ items: consuming [SyncItem], for accountId: UUID, options: SyncOptions, startingFrom read: AccountHoldings?,
        whileStoring: @escaping @Sendable () async -> Void = {}
    ) async throws -> SyncOutcome {
        let now = now()
        let catalogState = catalog.currentState
        let catalog = catalogState.catalog
        let presented = consume items
        let chains = SyncTransaction.chains(of: presented)
        let (verdicts, body, version, moves, newVersions) = try await pool.withRetryingTransaction(rollbackOnly: options.dryRun) { connection in
            let transaction = SyncTransaction(
                connection: connection, presenter: accountId, options: options, rules: rules, catalog: catalog, now: now,
                events: events)
            let before = try await transaction.lockAccount(startingFrom: read)
            // The versions insert is encoded while PostgreSQL decides the owners (~4.5 ms of CPU
            // for a thousand purchases, and this server has nothing else to do meanwhile), for the
            // plan nearly every sync has; storing encodes again only for another.
            async let expected = SyncTransaction.encodeExpectedInsert(chains, presenter: accountId, before: before.ledger)
            let decided = try await transaction.decide(chains, before: before.ledger)
            var plan = transaction.plan(chains, decided: decided, before: before.ledger)
            try await transaction.writeOwnership(plan)
            for kept in try await transaction.takeUnclaimed(claimedIn: plan) {
                plan.add(await verification.unclaimed(kept.kind, kept.signedPayload), for: kept.accountId)
            }
            let expectedInsert = await expected
            async let besides: Void = whileStoring()
            let stored = try await transaction.store(plan, before: before, expected: expectedInsert)
            let decisions = decided.decisions
            async let answered = { () throws -> ([Verdict], [UInt8]) in
                let verdicts = SyncTransaction.verdicts(
                    for: presented, presenter: accountId, decisions: decisions, stored: stored)
                return (verdicts, try answer(
                    verdicts, accountId: accountId, version: stored.version, ledger: stored.ledger, catalog: catalog,
                    at: now, dryRun: options.dryRun))
            }()
            let newVersions = try await transaction.finish(stored, endingTransaction: true)
            await besides
            let (verdicts, body) = try await answered
            return (verdicts, body, stored.version, stored.moves, newVersions)
        }
        // Stored and answered: the signed texts, most of a large restore's memory, are let go.
        Self.letGo(consume presented, consume chains)
        SyncMetrics.record(verdicts, dryRun: options.dryRun)
        guard !options.dryRun else { return SyncOutcome(verdicts: verdicts, body: body, changedAccounts: [:]) }
        snapshots.invalidate(newVersions)
        for move in moves { log(move) }
        return SyncOutcome(
            verdicts: verdicts, body: body, changedAccounts: newVersions,
            etag: LookupService.etag(version: version, catalogRevision: catalogState.revision))
    }

    /// Releases a sync's items and chains in a task of their own: freeing a large restore's
    /// records and texts (thousands of allocations) happens beside the answer going out, not
    /// before it.
    private static func letGo(_ items: consuming [SyncItem], _ chains: consuming [String: [TransactionRecord]]) {
        let released = (items, chains)
        Task.detached(priority: .utility) { withExtendedLifetime(released) {} }
    }

    /// The body of a sync's answer: the verdicts and the account's signed snapshot, or for a dry
    /// run its unsigned preview.
    private func answer(
        _ verdicts: [Verdict], accountId: UUID, version: Int64, ledger: Ledger, catalog: Catalog, at now: Date,
        dryRun: Bool
    ) throws -> [UInt8] {
        dryRun
            ? try snapshots.previewResponse(
                verdicts: verdicts, accountId: accountId, version: version, ledger: ledger, catalog: catalog, at: now)
            : try snapshots.syncResponse(
                verdicts: verdicts, accountId: accountId, version: version, ledger: ledger, catalog: catalog, at: now)
    }

    /// Every move of a purchase between accounts is worth an operator's notice: a purchase that
    /// keeps moving is shared between people, or fought over.
    private func log(_ move: SyncTransaction.Move) {
        logger.notice("a purchase moved to another account", metadata: [
            "storesync.original_transaction_id": "\(move.originalTransactionId)",
            "storesync.from_account_id": "\(move.from)",
            "storesync.to_account_id": "\(move.to)",
        ])
    }
}
