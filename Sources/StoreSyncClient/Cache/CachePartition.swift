import Foundation

/// One account's share of the cache, or the anonymous share that holds purchases recorded
/// before anyone signed in. Signing in as B never reads A's partition.
///
/// Keys are `storesync.acct.<account uuid>.<item>` and `storesync.anon.<item>`: at most 60
/// bytes, within iCloud key-value storage's 64.
enum CachePartition: Hashable, Sendable, CustomStringConvertible {
    case anonymous
    case account(UUID)

    /// The prefix every key of this partition starts with.
    var keyPrefix: String {
        switch self {
        case .anonymous: "\(CacheKeys.namespace)anon."
        case .account(let id): "\(CacheKeys.namespace)acct.\(id.uuidString.lowercased())."
        }
    }

    func key(_ item: CacheItem) -> String { keyPrefix + item.rawValue }

    var description: String {
        switch self {
        case .anonymous: "anonymous"
        case .account(let id): "account \(id.uuidString.lowercased())"
        }
    }
}

/// The items a partition holds.
enum CacheItem: String, CaseIterable, Sendable {
    /// The device's transactions (`[TransactionRecord]`, with their JWS when recorded here).
    case ledger
    /// The last verified snapshot, as the server sent it.
    case snapshot
    /// The ETag that came with the snapshot (``StoredETag``).
    case etag
    /// How the device's clock stands against the server's (``SnapshotClock``), by which the
    /// snapshot's freshness is judged.
    case clock
    /// Uploads waiting to be retried (`[OutboxEntry]`).
    case outbox
    /// Legacy `UserDefaults` flags waiting for the first restore (sorted product ids).
    case flags
    /// Uploads the server refused for good (`[RejectedUpload]`).
    case rejected
    /// The installations that imported StoreKit's current entitlements for this account
    /// (`[UUID]`), so each device does it once.
    case imported
    /// What could not be read of the list items above, kept rather than deleted
    /// (`[item: [bytes]]`; ``StoreSyncClient/readList(_:in:as:)``).
    case unreadable
}

/// Keys outside the partitions.
enum CacheKeys {
    static let namespace = "storesync."
    /// The signed-in session (``StoredSession``), kept in the session store.
    static let session = "storesync.session"
    /// This installation's device id, reused at every sign-in so the server lists one device;
    /// kept in the session store.
    static let deviceId = "storesync.device"
    /// This installation's id (``StoreSyncClient/installationId``); kept in the session store.
    static let installation = "storesync.installation"
    /// The last catalog fetched (``StoredCatalog``), for starts without a network.
    static let catalog = "storesync.catalog"
}
