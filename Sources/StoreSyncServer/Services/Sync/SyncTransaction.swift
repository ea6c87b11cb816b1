import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore

/// The steps of one upload or restore inside its database transaction, in the order
/// ``PurchaseSyncService`` runs them: lock the account (``lockAccount(startingFrom:)``), decide
/// where each purchase goes (``decide(_:before:)``) while the versions insert the plan most
/// likely makes is encoded (``encodeExpectedInsert(_:presenter:before:)``), plan the writes
/// (``plan(_:decided:before:)``), write ownership (``writeOwnership(_:)``), take the versions
/// kept for purchases claimed now (``takeUnclaimed(claimedIn:)``), store the versions
/// (``store(_:before:expected:)``), and append the events and bump the account versions
/// (``finish(_:endingTransaction:)``) while each item gets its verdict
/// (``verdicts(for:presenter:decisions:stored:)``).
struct SyncTransaction {
    let connection: PostgresConnection
    let presenter: UUID
    let options: SyncOptions
    let rules: OwnershipRules
    let catalog: Catalog
    let now: Date
    /// Appends events (and queues their webhook deliveries) in this transaction.
    let events: EventRepository

    let accounts = AccountRepository()
    let transactions = TransactionRepository()
    let renewals = RenewalInfoRepository()
    let ownership = OwnershipRepository()
    let notifications = NotificationRepository()

    /// Where each presented purchase goes, and what deciding it found and wrote.
    struct Decided {
        var decisions: [String: OwnershipDecision] = [:]
        /// The owner found for each purchase (none: nobody held it).
        var owners: [String: PurchaseOwner] = [:]
        /// Owner rows inserted while deciding, by purchase, already naming the owner the plan
        /// gives them.
        var ownersWritten: [String: OwnerChange] = [:]
    }

    /// The writes collected while planning, applied together: one statement per table, not
    /// per purchase.
    struct Plan {
        var versions: [(accountId: UUID, record: TransactionRecord)] = []
        var renewalInfos: [(accountId: UUID, info: RenewalInfo)] = []
        var events: [NewEvent] = []
        var changed: Set<UUID> = []
        /// Other accounts whose rows this restore changes; locked before anything is written.
        var accountsToLock: Set<UUID> = []
        var newOwners: [OwnerChange] = []
        /// Owner rows inserted while deciding, by purchase, already naming the owner the plan
        /// gives them.
        var ownersWritten: [String: OwnerChange] = [:]
        /// Purchases moving between accounts, with their whole history.
        var moves: [Move] = []
        /// Purchases the presenter starts sharing with their owner, whose every stored version
        /// it copies (``Move/from`` is the owner; the owner keeps them).
        var shares: [Move] = []
        /// Purchases an account claims now: versions kept for them while unclaimed follow.
        var claims: [(originalTransactionId: String, accountId: UUID)] = []
    }

    struct Move: Hashable {
        let originalTransactionId: String
        let from: UUID
        let to: UUID
    }

    /// A signed version a Server Notification kept for a purchase nobody held, taken now by the
    /// account that claims the purchase.
    struct KeptVersion: Sendable {
        let accountId: UUID
        let kind: UnclaimedKind
        let signedPayload: String
    }

    /// What storing the versions left, before the events and version bumps that end the writes.
    struct Stored: Sendable {
        /// The versions stored by this transaction (one stored before is not among them).
        var inserted: Set<VersionKey>
        /// The presenter's ledger afterwards.
        var ledger: Ledger
        /// The presenter's version once finished: the one its lock holds, plus one when the
        /// writes changed it.
        var version: Int64
        /// The events to append, revocations among them.
        var events: [NewEvent]
        /// Every account whose version goes up.
        var changed: Set<UUID>
        /// The purchases that moved between accounts.
        var moves: [Move]
    }

    /// Locks the presenter's account and gives what it holds at the locked version: `read` when
    /// it was read at that version (every write to an account's rows bumps its version), else
    /// its ledger read now.
    ///
    /// - Parameter read: What the account held when read before the transaction, if it was.
    /// - Throws: ``AccountError/accountDeleted`` when the account was deleted after the request
    ///   was authenticated (its version row is gone): nothing is written.
    func lockAccount(startingFrom read: AccountHoldings?) async throws -> AccountHoldings {
        guard let version = try await accounts.lockVersion(presenter, on: connection) else {
            throw AccountError.accountDeleted
        }
        if let read, read.version == version { return read }
        return AccountHoldings(version: version, ledger: try await transactions.ledger(of: presenter, on: connection))
    }

    /// The verified records of `items` grouped by purchase.
    static func chains(of items: [SyncItem]) -> [String: [TransactionRecord]] {
        var chains: [String: [TransactionRecord]] = [:]
        // Sized once: grown from empty, it would be rebuilt at every doubling.
        chains.reserveCapacity(items.count)
        for case .verified(let record, _) in items { chains[record.originalTransactionId, default: []].append(record) }
        return chains
    }
}
