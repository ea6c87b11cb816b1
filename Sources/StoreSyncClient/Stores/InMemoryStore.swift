public import Foundation

/// A ``KeyValueStore`` that keeps everything in memory: for tests, previews and, as a
/// ``SessionStore``, the session of an app that wants the user to sign in at every launch
/// (the default session store on Linux).
public final class InMemoryStore: SessionStore, @unchecked Sendable {  // `values` is only touched under `lock`.
    private let lock = NSLock()
    private var values: [String: Data]

    /// Creates a store, optionally pre-filled.
    ///
    /// - Parameter values: The initial contents.
    public init(_ values: [String: Data] = [:]) {
        self.values = values
    }

    /// The value stored under a key.
    ///
    /// - Parameter key: The key.
    /// - Returns: The bytes, or `nil` when nothing is stored.
    public func data(forKey key: String) -> Data? {
        locked { values[key] }
    }

    /// Stores a value, or removes the key when `data` is `nil`.
    ///
    /// - Parameters:
    ///   - data: The new value, or `nil` to remove the key.
    ///   - key: The key.
    public func set(_ data: Data?, forKey key: String) {
        locked { values[key] = data }
    }

    /// The keys that start with a prefix.
    ///
    /// - Parameter prefix: The prefix.
    /// - Returns: The matching keys.
    public func keys(withPrefix prefix: String) -> [String] {
        locked { values.keys.filter { $0.hasPrefix(prefix) } }
    }

    /// Everything stored, e.g. to copy a device's cache in a test.
    public var contents: [String: Data] {
        locked { values }
    }

    // NSLocking.withLock is newer than iOS 16.
    private func locked<Result>(_ body: () -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
