#if canImport(Darwin)
public import Foundation

/// A ``KeyValueStore`` over iCloud key-value storage (`NSUbiquitousKeyValueStore`), so the
/// cache follows the user's Apple ID to their other devices.
///
/// Cached snapshots arriving from another device are verified with the pinned key like any
/// other; purchases stay partitioned by account. iCloud key-value storage holds at most 1 MB
/// and 1024 keys per app, and syncs when the system decides: use it beside a local store for
/// accounts with a modest number of purchases, never as the only copy of the outbox. Devices
/// running different versions of the app share it: an element of a cached list (an outbox
/// entry, a ledger record) one version cannot read is kept aside in the partition's
/// `storesync.…unreadable` key, never deleted (and the deletion synced) by the other; an outbox
/// entry is still uploaded from its signed transaction. It is not
/// a ``SessionStore``: the client cannot be given it for the session, whose bearer token must
/// not leave the device.
/// The app needs the iCloud key-value storage entitlement.
public final class UbiquitousStore: KeyValueStore, @unchecked Sendable {  // Calls are serialised by `lock`.
    private let store: NSUbiquitousKeyValueStore
    private let lock = NSLock()

    /// Creates a store over the app's iCloud key-value store.
    ///
    /// - Parameter store: The ubiquitous store; `.default` unless given.
    public init(store: NSUbiquitousKeyValueStore = .default) {
        self.store = store
    }

    /// The value stored under a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: The bytes, or `nil`.
    public func data(forKey key: String) -> Data? {
        locked { store.data(forKey: key) }
    }

    /// Stores a value, or removes the key when `data` is `nil`, and asks iCloud to sync soon.
    ///
    /// - Parameters:
    ///   - data: The new value, or `nil` to remove the key.
    ///   - key: The key.
    public func set(_ data: Data?, forKey key: String) {
        locked {
            if let data {
                store.set(data, forKey: key)
            } else {
                store.removeObject(forKey: key)
            }
            store.synchronize()
        }
    }

    /// The keys that start with a prefix.
    ///
    /// - Parameter prefix: The prefix.
    /// - Returns: The matching keys.
    public func keys(withPrefix prefix: String) -> [String] {
        locked { store.dictionaryRepresentation.keys.filter { $0.hasPrefix(prefix) } }
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
#endif
