public import Foundation

/// Where ``StoreSyncClient`` keeps its cache: purchases, the last signed snapshot, the outbox
/// of pending uploads and the catalog.
///
/// Implementations must be safe to call from any thread, and each ``set(_:forKey:)`` must be
/// all-or-nothing: after a crash a key holds either its old or its new value, never a mix.
/// Keys are short ASCII strings (letters, digits, `.`, `-`), at most 64 bytes, so that every
/// store — iCloud key-value storage included — can hold them unchanged.
///
/// Provided: ``InMemoryStore`` (tests, previews), ``FileStore`` (one file per key, atomic
/// replace), ``UserDefaultsStore`` and, on Apple platforms, `UbiquitousStore` (iCloud
/// key-value storage) and `KeychainStore`. The session — it holds the bearer token — goes to
/// a separate ``SessionStore``, never to this one.
public protocol KeyValueStore: Sendable {
    /// The value stored under a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: The bytes, or `nil` when nothing is stored under the key.
    /// - Throws: When the store cannot be read (an I/O error), as opposed to an absent key.
    func data(forKey key: String) throws -> Data?

    /// Stores a value, or removes the key when `data` is `nil`.
    ///
    /// - Parameters:
    ///   - data: The new value, or `nil` to remove the key.
    ///   - key: The key.
    /// - Throws: When the value could not be stored durably; the old value is then still in place.
    func set(_ data: Data?, forKey key: String) throws

    /// The keys that start with a prefix.
    ///
    /// - Parameter prefix: The prefix; the empty string lists every key.
    /// - Returns: The matching keys, in no particular order.
    /// - Throws: When the store cannot be listed.
    func keys(withPrefix prefix: String) throws -> [String]
}
