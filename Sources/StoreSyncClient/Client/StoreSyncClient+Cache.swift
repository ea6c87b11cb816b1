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

    // MARK: Lists

    /// A list item read element by element. What one version of this library cannot read of
    /// what another wrote (an app update changed a layout, or a cache shared through iCloud is
    /// written by two versions of the app) costs that element, never its neighbours; and it is
    /// never deleted: the item's bytes are kept aside (``quarantine(_:of:in:problem:)``) before
    /// the next write of the item leaves the element out.
    ///
    /// - Parameters:
    ///   - item: A list item of the partition.
    ///   - partition: The partition.
    ///   - stored: How one element is read; its ``ListElement/element`` is nil when it cannot be.
    /// - Returns: The elements read, in order.
    func readList<Stored: ListElement>(_ item: CacheItem, in partition: CachePartition, as stored: Stored.Type) -> [Stored.Element] {
        let key = partition.key(item)
        guard let bytes = readBytes(key) else { return [] }
        do {
            let elements = try Self.decoder.decode([Stored].self, from: bytes)
            let read = elements.compactMap(\.element)
            if read.count < elements.count {
                quarantine(bytes, of: item, in: partition, problem: "\(elements.count - read.count) of \(elements.count) elements cannot be read")
            }
            return read
        } catch {
            quarantine(bytes, of: item, in: partition, problem: "not a list this version can read: \(error)")
            return []
        }
    }

    /// Keeps an item's bytes that cannot be read (all of them, or some of their elements) in the
    /// partition's ``CacheItem/unreadable`` item, each distinct text once per item, where no
    /// later write of the item reaches them, and reports them: so a later version or a support
    /// request can still read them, and a cache shared with another device (iCloud) does not
    /// lose them there. One key per partition, because a key of its own per item would pass
    /// the 64 bytes every store must accept. The newest ``quarantinedTextsPerItem`` texts of
    /// an item are kept: a device of a newer version writes its element back at each change,
    /// and each of those texts would otherwise add to a store iCloud caps at 1 MB. A quarantine
    /// this version cannot read (another version's layout) is left as it is.
    func quarantine(_ bytes: Data, of item: CacheItem, in partition: CachePartition, problem: String) {
        let key = partition.key(item)
        let quarantineKey = partition.key(.unreadable)
        // Nothing kept yet reads as empty; kept in a layout this version cannot read, as nil.
        let readable: [String: [Data]]? = readBytes(quarantineKey).map { try? Self.decoder.decode([String: [Data]].self, from: $0) } ?? [:]
        if var kept = readable {
            var keptForItem = kept[item.rawValue] ?? []
            if !keptForItem.contains(bytes) {
                keptForItem = Array((keptForItem + [bytes]).suffix(Self.quarantinedTextsPerItem))
                kept[item.rawValue] = keptForItem
                if let encoded = try? Self.encoder.encode(kept) { try? cache.set(encoded, forKey: quarantineKey) }
            }
        }
        integrityIssues.note(CacheIntegrityIssue(key: key, problem: "\(problem); kept in \(quarantineKey)", detectedAt: now()))
    }

    /// How many distinct unreadable texts of one item are kept.
    static let quarantinedTextsPerItem = 8

    /// What a partition keeps of its items' unreadable bytes, by item: each distinct text a
    /// list item held when an element of it could not be read.
    func quarantined(in partition: CachePartition) -> [CacheItem: [Data]] {
        guard let bytes = readBytes(partition.key(.unreadable)),
            let kept = try? Self.decoder.decode([String: [Data]].self, from: bytes)
        else { return [:] }
        return Dictionary(uniqueKeysWithValues: kept.compactMap { name, texts in CacheItem(rawValue: name).map { ($0, texts) } })
    }

    // MARK: Ledger

    func ledger(in partition: CachePartition) -> Ledger {
        Ledger(records: readList(.ledger, in: partition, as: Readable<TransactionRecord>.self))
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
    /// their signed transaction (``StoredOutboxEntry``); what cannot be read at all is kept
    /// aside as ``readList(_:in:as:)`` says.
    func outbox(in partition: CachePartition) -> [OutboxEntry] {
        readList(.outbox, in: partition, as: StoredOutboxEntry.self)
    }

    func save(_ outbox: [OutboxEntry], in partition: CachePartition) throws(StoreSyncClientError) {
        try write(outbox.isEmpty ? nil : outbox, .outbox, in: partition)
    }

    // MARK: Legacy flags

    func legacyFlags(in partition: CachePartition) -> [String] {
        readList(.flags, in: partition, as: Readable<String>.self)
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
