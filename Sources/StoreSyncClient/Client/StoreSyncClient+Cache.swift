import Foundation
import StoreSyncAPI
import StoreSyncCore

/// Typed access to the partitions. Every read-modify-write here is synchronous, so no other
/// call of the actor can interleave with it; an item that no longer decodes is discarded and
/// reported in ``StoreSyncClient/integrityIssues`` rather than trusted or crashed on.
extension StoreSyncClient {
    /// Reads what the server wrote and what the device cached of it; values a newer server
    /// may add are read as the domain types document rather than refused
    /// (``StoreSyncCore/Swift/CodingUserInfoKey/readsNewerServerValues``).
    static var decoder: JSONDecoder {
        let decoder = StoreSyncJSON.makeDecoder()
        decoder.userInfo[.readsNewerServerValues] = true
        return decoder
    }
    static var encoder: JSONEncoder { StoreSyncJSON.makeEncoder() }

    func read<Value: Decodable>(_ type: Value.Type, _ item: CacheItem, in partition: CachePartition) -> Value? {
        let key = partition.key(item)
        guard let bytes = readBytes(key) else { return nil }
        do {
            return try Self.decoder.decode(Value.self, from: bytes)
        } catch {
            discard(key, problem: "does not decode as \(Value.self): \(error)")
            return nil
        }
    }

    func readBytes(_ key: String) -> Data? {
        do {
            return try cache.data(forKey: key)
        } catch {
            integrityIssues.note(CacheIntegrityIssue(key: key, problem: "unreadable: \(error)", detectedAt: now()))
            return nil
        }
    }

    /// Writes an item; `nil` (and an empty collection, by the callers' choice) removes it.
    func write<Value: Encodable>(_ value: Value?, _ item: CacheItem, in partition: CachePartition) throws(StoreSyncClientError) {
        let key = partition.key(item)
        do {
            try cache.set(try value.map { try Self.encoder.encode($0) }, forKey: key)
        } catch {
            throw .storage("\(key): \(error)")
        }
    }

    func discard(_ key: String, problem: String) {
        try? cache.set(nil, forKey: key)
        integrityIssues.note(CacheIntegrityIssue(key: key, problem: problem, detectedAt: now()))
    }

    // MARK: Ledger

    func ledger(in partition: CachePartition) -> Ledger {
        Ledger(records: read([TransactionRecord].self, .ledger, in: partition) ?? [])
    }

    func save(_ ledger: Ledger, in partition: CachePartition) throws(StoreSyncClientError) {
        try write(ledger.records.isEmpty ? nil : ledger.records, .ledger, in: partition)
    }

    func merge(_ records: [TransactionRecord], into partition: CachePartition) throws(StoreSyncClientError) {
        guard !records.isEmpty else { return }
        var ledger = ledger(in: partition)
        let before = ledger
        ledger.merge(records)
        if ledger != before { try save(ledger, in: partition) }
    }

    // MARK: Outbox

    /// The partition's outbox. Elements another version of this library wrote are read by
    /// their signed transaction (``StoredOutboxEntry``); what cannot be read at all is never
    /// deleted: the bytes are kept under the key with `.unreadable` appended (``quarantine(_:of:problem:)``)
    /// and reported in ``StoreSyncClient/integrityIssues``.
    func outbox(in partition: CachePartition) -> [OutboxEntry] {
        let key = partition.key(.outbox)
        guard let bytes = readBytes(key) else { return [] }
        do {
            let stored = try Self.decoder.decode([StoredOutboxEntry].self, from: bytes)
            let entries = stored.compactMap(\.entry)
            if entries.count < stored.count {
                quarantine(bytes, of: key, problem: "\(stored.count - entries.count) outbox entries hold no readable signed transaction")
            }
            return entries
        } catch {
            quarantine(bytes, of: key, problem: "the outbox does not decode: \(error)")
            return []
        }
    }

    /// Keeps bytes that cannot be read under `key` + `.unreadable` (a JSON array of each
    /// distinct such text), where no later write of `key` reaches them, and reports them: for
    /// an item whose loss would lose a purchase, so a later version or a support request can
    /// still read it, and a cache shared with another device (iCloud) does not lose it there.
    func quarantine(_ bytes: Data, of key: String, problem: String) {
        let quarantineKey = key + ".unreadable"
        var kept = readBytes(quarantineKey).flatMap { try? Self.decoder.decode([Data].self, from: $0) } ?? []
        if !kept.contains(bytes), let encoded = try? Self.encoder.encode(kept + [bytes]) {
            kept.append(bytes)
            try? cache.set(encoded, forKey: quarantineKey)
        }
        integrityIssues.note(CacheIntegrityIssue(key: key, problem: "\(problem); kept in \(quarantineKey)", detectedAt: now()))
    }

    func save(_ outbox: [OutboxEntry], in partition: CachePartition) throws(StoreSyncClientError) {
        try write(outbox.isEmpty ? nil : outbox, .outbox, in: partition)
    }

    // MARK: Legacy flags

    func legacyFlags(in partition: CachePartition) -> [String] {
        read([String].self, .flags, in: partition) ?? []
    }

    func saveLegacyFlags(_ productIds: [String], in partition: CachePartition) throws(StoreSyncClientError) {
        try write(productIds.isEmpty ? nil : Array(Set(productIds)).sorted(), .flags, in: partition)
    }

    // MARK: Session

    func saveSession(_ session: StoredSession?) throws(StoreSyncClientError) {
        do {
            try sessionStore.set(try session.map { try Self.encoder.encode($0) }, forKey: CacheKeys.session)
        } catch {
            throw .storage("\(CacheKeys.session): \(error)")
        }
    }

    /// The device id of an earlier session on this installation, reused so the server keeps
    /// one device per installation. It lives in the session store, which never leaves the
    /// device (a cache synchronised through iCloud would hand one id to every device); an id an
    /// earlier version kept in the cache is still read.
    var savedDeviceId: UUID? {
        let bytes = (try? sessionStore.data(forKey: CacheKeys.deviceId)) ?? readBytes(CacheKeys.deviceId)
        return bytes.flatMap { UUID(uuidString: String(decoding: $0, as: UTF8.self)) }
    }

    func saveDeviceId(_ deviceId: UUID) {
        // Only a convenience for the server's device list: a failure here costs nothing else.
        try? sessionStore.set(Data(deviceId.uuidString.utf8), forKey: CacheKeys.deviceId)
    }
}
