public import Foundation

/// A ``KeyValueStore`` over `UserDefaults`, for apps that already keep their settings there.
///
/// `UserDefaults` writes are atomic per key but not flushed to disk at once: a purchase
/// recorded just before the app is killed may be lost with it, which ``FileStore`` avoids.
/// Prefer a suite of your own (``init(suiteName:)``) so StoreSync's keys stay apart from the
/// app's. It is not a ``SessionStore``: the session's bearer token does not belong in an
/// unprotected preferences file.
public final class UserDefaultsStore: KeyValueStore, @unchecked Sendable {  // UserDefaults is documented thread-safe.
    private let defaults: UserDefaults

    /// Creates a store over a `UserDefaults` instance.
    ///
    /// - Parameter defaults: The defaults; `.standard` unless given.
    public init(defaults: UserDefaults = .standard) {
        self.defaults = defaults
    }

    /// Creates a store over a named suite (an app group, or a suite of StoreSync's own).
    ///
    /// - Parameter suiteName: The suite's name.
    /// - Returns: `nil` when `UserDefaults` refuses the name (e.g. the app's own bundle id).
    public convenience init?(suiteName: String) {
        guard let defaults = UserDefaults(suiteName: suiteName) else { return nil }
        self.init(defaults: defaults)
    }

    /// The value stored under a key; a value of another type than `Data` reads as absent.
    ///
    /// - Parameter key: The key.
    /// - Returns: The bytes, or `nil`.
    public func data(forKey key: String) -> Data? {
        defaults.data(forKey: key)
    }

    /// Stores a value, or removes the key when `data` is `nil`.
    ///
    /// - Parameters:
    ///   - data: The new value, or `nil` to remove the key.
    ///   - key: The key.
    public func set(_ data: Data?, forKey key: String) {
        if let data {
            defaults.set(data, forKey: key)
        } else {
            defaults.removeObject(forKey: key)
        }
    }

    /// The keys that start with a prefix, among those the defaults hold.
    ///
    /// - Parameter prefix: The prefix.
    /// - Returns: The matching keys.
    public func keys(withPrefix prefix: String) -> [String] {
        defaults.dictionaryRepresentation().keys.filter { $0.hasPrefix(prefix) }
    }
}
