import Foundation
import StoreSyncAPI

/// The cached snapshot: verified with the pinned key every time its bytes are loaded, and
/// replaced only by a newer verified one.
extension StoreSyncClient {
    /// The partition's cached snapshot, if it verifies; one that does not is deleted and
    /// reported in ``integrityIssues``.
    func verifiedSnapshot(in partition: CachePartition) -> Snapshot? {
        guard case .account(let accountId) = partition else { return nil }
        let key = partition.key(.snapshot)
        guard let bytes = readBytes(key) else { return nil }
        // The same bytes verified a moment ago need no second signature check.
        if let memo = snapshotMemo, memo.partition == partition, memo.bytes == bytes { return memo.snapshot }
        do {
            let snapshot = try verifier.verify(bytes: bytes, accountId: accountId)
            snapshotMemo = VerifiedSnapshot(partition: partition, bytes: bytes, snapshot: snapshot)
            return snapshot
        } catch {
            discard(key, problem: "cached snapshot discarded: \(error)")
            try? cache.set(nil, forKey: partition.key(.etag))
            return nil
        }
    }

    /// Checks the snapshot of an upload's or a restore's answer for the ticket's account, over
    /// its bytes as received when the answer located them.
    func trust(_ answer: SyncAnswer, for ticket: SessionTicket) throws(StoreSyncClientError) {
        do {
            try verifier.verify(answer.response.snapshot, receivedAs: answer.snapshotBytes, accountId: ticket.session.accountId)
        } catch {
            throw .untrustedSnapshot
        }
    }

    /// Caches a verified snapshot unless the cached one is newer (answers to concurrent calls
    /// may arrive out of order), and measures the device's clock against it.
    ///
    /// - Parameters:
    ///   - snapshot: The verified snapshot.
    ///   - bytes: Its JSON as received; re-encoded when `nil`.
    ///   - etag: The ETag that came with it, if any.
    ///   - partition: The account's partition.
    func keep(_ snapshot: Snapshot, bytes: Data? = nil, etag: String? = nil, in partition: CachePartition)
        throws(StoreSyncClientError)
    {
        if let cached = verifiedSnapshot(in: partition) {
            if cached.version > snapshot.version { return }
            if cached.version == snapshot.version, cached.generatedAt >= snapshot.generatedAt {
                if let etag { try write(StoredETag(etag: etag, version: snapshot.version), .etag, in: partition) }
                return
            }
        }
        let encoded: Data
        do {
            encoded = try bytes ?? Self.encoder.encode(snapshot)
        } catch {
            throw .storage("the snapshot could not be encoded: \(error)")
        }
        // Only a snapshot newer than the cached one moves the clock: replaying an old answer
        // must not wind the device's idea of server time back.
        try measureClock(against: snapshot, in: partition)
        do {
            try cache.set(encoded, forKey: partition.key(.snapshot))
        } catch {
            throw .storage("\(partition.key(.snapshot)): \(error)")
        }
        snapshotMemo = VerifiedSnapshot(partition: partition, bytes: encoded, snapshot: snapshot)
        try write(etag.map { StoredETag(etag: $0, version: snapshot.version) }, .etag, in: partition)
    }

    /// Whether a snapshot is young enough to be revalidated with `If-None-Match`: a 304 keeps
    /// its `validUntil` and measures no clock, so past this point, or with the clock set back,
    /// only a full answer renews it.
    func isComfortablyValid(_ snapshot: Snapshot, in partition: CachePartition) -> Bool {
        let clock = snapshotClock(in: partition)
        let serverNow = serverTime(at: now(), clock: clock)
        let lifetime = snapshot.validUntil.timeIntervalSince(snapshot.generatedAt)
        let revalidateUntil = snapshot.generatedAt.addingTimeInterval(lifetime * configuration.conditionalRefreshWindow)
        return SnapshotClock.freshness(of: snapshot, at: serverNow, clock: clock) == .fresh && serverNow < revalidateUntil
    }
}
