import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore

/// The database work of one upload or restore, inside one database transaction: lock the
/// account, decide ownership per purchase, write every version with one statement, append
/// events, bump the versions of every account that changed.
struct SyncTransaction {
    let connection: PostgresConnection
    let presenter: UUID
    let options: SyncOptions
    let rules: OwnershipRules
    let catalog: Catalog
    let now: Date
    /// The presenter's ledger at a version, read before the transaction; used when the version
    /// is still the same under the lock (every write to an account's rows bumps its version).
    var read: LookupQuery.Found?
    /// Verifies a signed version kept for an unclaimed purchase again before it is merged.
    let verifyUnclaimed: @Sendable (UnclaimedKind, String) async -> UnclaimedVersion?

    let accounts = AccountRepository()
    let transactions = TransactionRepository()
    let renewals = RenewalInfoRepository()
    let ownership = OwnershipRepository()
    let events = EventRepository()
    let notifications = NotificationRepository()

    /// What the transaction produced, before the snapshot is signed.
    struct Result {
        var verdicts: [Verdict]
        var ledger: Ledger
        var version: Int64
        /// Every account whose version changed, with its new version.
        var changedAccounts: [UUID: Int64]
    }

    /// The writes collected while deciding, applied together: one statement per table, not
    /// per purchase.
    struct Plan {
        var versions: [(accountId: UUID, record: TransactionRecord)] = []
        var renewalInfos: [(accountId: UUID, info: RenewalInfo)] = []
        var events: [NewEvent] = []
        var changed: Set<UUID> = []
        /// Other accounts whose rows this restore changes; locked before anything is written.
        var accountsToLock: Set<UUID> = []
        var newOwners: [OwnerChange] = []
        /// Owner rows inserted while deciding, already naming the owner the plan gives them.
        var ownersWritten: Set<OwnerChange> = []
        /// Purchases moving between accounts, with their whole history.
        var moves: [Move] = []
        /// Purchases an account claims now: versions kept for them while unclaimed follow.
        var claims: [(originalTransactionId: String, accountId: UUID)] = []
    }

    struct Move: Hashable {
        let originalTransactionId: String
        let from: UUID
        let to: UUID
    }

    func run(_ items: [SyncItem]) async throws -> Result {
        guard let lockedVersion = try await accounts.lockVersion(presenter, on: connection) else {
            throw StoreSyncError.accountMissing(presenter)
        }
        let before = if let read, read.version == lockedVersion {
            read.ledger
        } else {
            try await transactions.ledger(of: presenter, on: connection)
        }
        let chains = Self.chains(of: items)
        let (decisions, owners, ownersWritten) = try await decide(chains, before: before)

        var plan = Plan(ownersWritten: ownersWritten)
        for (id, records) in chains.sorted(by: { $0.key < $1.key }) {
            guard let decision = decisions[id] else { continue }
            plan.apply(decision, chain: id, records: records, owner: owners[id], presenter: presenter, before: before)
        }
        try await execute(&plan)
        let inserted = try await transactions.insert(Self.unstored(plan.versions, presenter: presenter, before: before), on: connection)
        for key in inserted { plan.changed.insert(key.accountId) }
        let latestRenewalInfos = Self.latestRenewalInfos(plan.renewalInfos)
        try await renewals.store(latestRenewalInfos, on: connection)

        let presenterWritten = inserted.contains { $0.accountId == presenter }
            || latestRenewalInfos.contains { $0.accountId == presenter }
            || plan.moves.contains { $0.from == presenter || $0.to == presenter }
        // Nothing above wrote the presenter's rows (a restore of what it holds already): its
        // ledger is still `before`, which holds at the version locked at the start.
        let after = presenterWritten ? try await transactions.ledger(of: presenter, on: connection) : before
        plan.events += Self.revocationEvents(account: presenter, before: before, after: after)
        try await events.append(plan.events, on: connection)

        let newVersions = try await accounts.bumpVersions(plan.changed, on: connection)
        let verdicts = items.map { verdict(for: $0, decisions: decisions, inserted: inserted, ledger: after) }
        // Unchanged, the presenter's version is the one locked at the start.
        let version = newVersions[presenter] ?? lockedVersion
        return Result(verdicts: verdicts, ledger: after, version: version, changedAccounts: newVersions)
    }

    /// The planned versions less those the presenter's ledger shows stored already.
    ///
    /// Those would conflict and change nothing; leaving them out spares PostgreSQL parsing
    /// them (a repeated restore re-sends every JWS, megabytes for a thousand entries). The
    /// ledger is the one at the version the account's lock holds and has whole stored
    /// versions, so a key found there is a row of the table. Versions for other accounts are
    /// all written.
    static func unstored(
        _ versions: [(accountId: UUID, record: TransactionRecord)], presenter: UUID, before: Ledger
    ) -> [(accountId: UUID, record: TransactionRecord)] {
        let stored = Set(before.records.map { VersionKey(accountId: presenter, record: $0) })
        guard !stored.isEmpty else { return versions }
        return versions.filter { !stored.contains(VersionKey(accountId: $0.accountId, record: $0.record)) }
    }

    /// The verified records grouped by purchase.
    private static func chains(of items: [SyncItem]) -> [String: [TransactionRecord]] {
        var chains: [String: [TransactionRecord]] = [:]
        for case .verified(let record, _) in items { chains[record.originalTransactionId, default: []].append(record) }
        return chains
    }
}
