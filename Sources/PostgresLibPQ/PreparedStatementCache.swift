/// The statements one connection has prepared, keyed by SQL text and parameter types.
///
/// Bounded: when full, the least recently used statement is evicted (and deallocated on the
/// server by the caller), so a program that generates many distinct statements cannot grow a
/// backend's memory without limit.
struct PreparedStatementCache {
    struct Key: Hashable {
        var sql: String
        var parameterTypes: [UInt32]
    }

    private struct Entry {
        var name: String
        var lastUse: UInt64
    }

    let capacity: Int
    private var entries: [Key: Entry] = [:]
    private var clock: UInt64 = 0
    private var nextNumber = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { entries.count }

    /// The statement's server-side name, marking it used.
    mutating func name(for key: Key) -> String? {
        guard var entry = entries[key] else { return nil }
        clock += 1
        entry.lastUse = clock
        entries[key] = entry
        return entry.name
    }

    /// Removes and returns the least recently used statement's name when the cache is full.
    mutating func evictIfFull() -> String? {
        guard entries.count >= capacity,
              let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { return nil }
        entries[oldest.key] = nil
        return oldest.value.name
    }

    /// A fresh statement name, unique on this connection.
    mutating func makeName() -> String {
        nextNumber += 1
        return "storesync_\(nextNumber)"
    }

    mutating func insert(_ key: Key, name: String) {
        clock += 1
        entries[key] = Entry(name: name, lastUse: clock)
    }

    /// Forgets a statement whose server-side plan went stale or disappeared.
    mutating func remove(_ key: Key) -> String? {
        entries.removeValue(forKey: key)?.name
    }

    /// Forgets everything; the server forgot too (a new session).
    mutating func removeAll() {
        entries.removeAll()
    }
}
