#if canImport(Security)
public import Foundation
import Security

/// A ``SessionStore`` over the Keychain: where ``StoreSyncClient`` keeps the session (and its
/// bearer token) on Apple platforms by default.
///
/// Each key is one generic-password item of the store's service, readable after the device's
/// first unlock and never synchronised: `kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`, so
/// the token stays out of iCloud Keychain and out of backups restored to another device. Items
/// live in the data protection keychain on macOS too. Each ``set(_:forKey:)`` replaces one item
/// with a single Keychain call, so a key holds its old or its new value, never a mix.
public struct KeychainStore: SessionStore {
    /// The `kSecAttrService` of every item, so StoreSync's items stay apart from the app's.
    public let service: String
    /// The Keychain access group, to share the session with an app extension; `nil` for the
    /// app's default group.
    public let accessGroup: String?

    /// Creates a store over a service's items.
    ///
    /// - Parameters:
    ///   - service: The service name; `storesync` by default.
    ///   - accessGroup: An access group shared with extensions, or `nil`.
    public init(service: String = "storesync", accessGroup: String? = nil) {
        self.service = service
        self.accessGroup = accessGroup
    }

    /// The value stored under a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: The bytes, or `nil` when the service has no item for the key.
    /// - Throws: ``KeychainStoreError`` when the Keychain refuses the read (e.g. before the
    ///   first unlock after a restart).
    public func data(forKey key: String) throws -> Data? {
        var query = itemQuery(key)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw KeychainStoreError(status: status) }
        guard let data = result as? Data else { throw KeychainStoreError(status: errSecInternalError) }
        return data
    }

    /// Stores a value, or removes the key's item when `data` is `nil`.
    ///
    /// - Parameters:
    ///   - data: The new value, or `nil` to remove the item.
    ///   - key: The key.
    /// - Throws: ``KeychainStoreError`` when the Keychain refuses the write; the old value is
    ///   then still in place.
    public func set(_ data: Data?, forKey key: String) throws {
        guard let data else {
            let status = SecItemDelete(itemQuery(key) as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainStoreError(status: status) }
            return
        }
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        var status = SecItemUpdate(itemQuery(key) as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            let item = itemQuery(key).merging(attributes) { _, new in new }
            status = SecItemAdd(item as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw KeychainStoreError(status: status) }
    }

    /// The keys of the service's items that start with a prefix.
    ///
    /// - Parameter prefix: The prefix; the empty string lists every key.
    /// - Returns: The matching keys.
    /// - Throws: ``KeychainStoreError`` when the Keychain refuses the listing.
    public func keys(withPrefix prefix: String) throws -> [String] {
        var query = serviceQuery()
        query[kSecReturnAttributes as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return [] }
        guard status == errSecSuccess else { throw KeychainStoreError(status: status) }
        let items = result as? [[String: Any]] ?? []
        return items.compactMap { $0[kSecAttrAccount as String] as? String }.filter { $0.hasPrefix(prefix) }
    }

    /// Every item of this service (and access group), synchronisable ones excluded.
    private func serviceQuery() -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrSynchronizable as String: false,
            kSecUseDataProtectionKeychain as String: true,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    /// The one item of a key.
    private func itemQuery(_ key: String) -> [String: Any] {
        var query = serviceQuery()
        query[kSecAttrAccount as String] = key
        return query
    }
}
#endif
