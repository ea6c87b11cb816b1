import Foundation
import StoreSyncAPI
import StoreSyncCore

/// One thing a device handed the server, after verification and before any decision.
enum SyncItem: Sendable {
    /// A version Apple vouches for (a verified JWS or a verifyReceipt entry).
    case verified(TransactionRecord, entry: Int?)
    /// An entry whose signed data failed verification or contradicts its own fields, or a
    /// verified version from an environment this server does not take (`entry` is `nil` for
    /// an upload).
    case rejected(TransactionRecord?, entry: Int?, reason: String)
    /// An entry without signed data: confirmed only against what the server already holds.
    case unsigned(TransactionRecord, entry: Int)
    /// A legacy `UserDefaults` flag: product id set to true.
    case legacyFlag(productId: String)
    /// Legacy flags naming products the catalog does not define, dropped unread: one verdict
    /// answers them all, so a request's flags cost at most the catalog's size.
    case unknownLegacyFlags(count: Int)
}

/// How a sync may change ownership.
struct SyncOptions: Sendable {
    /// Only a restore the user asked for may move a purchase between accounts.
    var userInitiated: Bool
    /// Answer what would happen, change nothing.
    var dryRun: Bool
}

/// What a sync answers: one verdict per item and the account's snapshot afterwards.
struct SyncOutcome: Sendable {
    var verdicts: [Verdict]
    /// The ``SyncResponse``'s JSON, as sent: the verdicts and the account's snapshot after the
    /// change, signed, or for a dry run an unsigned preview.
    var body: [UInt8]
    /// Every account whose version changed, with its new version (cached snapshots of older
    /// versions are stale).
    var changedAccounts: [UUID: Int64]
    /// The ETag `GET /v1/entitlements` gives the snapshot's version under the catalog it was
    /// derived with, so the device's next lookup names what it has seen (no standby or cache
    /// answers older); `nil` for a dry run, whose preview is of nothing stored.
    var etag: String? = nil
}

/// A signed version kept for a purchase nobody held, verified again when an account claims it.
enum UnclaimedVersion: Sendable {
    case transaction(TransactionRecord)
    case renewalInfo(RenewalInfo)
}
