import Foundation
import StoreSyncClient

/// An in-memory cache whose reads or writes of chosen keys fail on demand, as a full disk, a
/// file without permission or the Keychain before first unlock would.
final class FaultyStore: KeyValueStore, @unchecked Sendable {  // The predicates are only touched under `lock`.
    struct Fault: Error {}
    private let base = InMemoryStore()
    private let lock = NSLock()
    private var readFails: @Sendable (String) -> Bool = { _ in false }
    private var writeFails: @Sendable (String) -> Bool = { _ in false }

    /// Which keys cannot be read; none by default.
    var failsReads: @Sendable (String) -> Bool {
        get { lock.withLock { readFails } }
        set { lock.withLock { readFails = newValue } }
    }

    /// Which keys cannot be written; none by default.
    var failsWrites: @Sendable (String) -> Bool {
        get { lock.withLock { writeFails } }
        set { lock.withLock { writeFails = newValue } }
    }

    func data(forKey key: String) throws -> Data? {
        if failsReads(key) { throw Fault() }
        return base.data(forKey: key)
    }

    func set(_ data: Data?, forKey key: String) throws {
        if failsWrites(key) { throw Fault() }
        base.set(data, forKey: key)
    }

    func keys(withPrefix prefix: String) -> [String] { base.keys(withPrefix: prefix) }
}
