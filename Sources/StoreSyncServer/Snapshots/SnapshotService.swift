import Foundation
import NIOConcurrencyHelpers
import StoreSyncAPI
import StoreSyncCore

/// Builds signed entitlement snapshots, and keeps the last one per account so an account
/// whose data did not change is answered without recomputing or re-signing.
final class SnapshotService: Sendable {
    private let signer: SnapshotSigner
    private let offlineGrace: TimeInterval
    private let cacheEnabled: Bool
    /// A cached snapshot is re-signed once this share of the offline grace has passed, so a
    /// device always receives most of the grace.
    private let refreshAfter: TimeInterval
    private let cache = NIOLockedValueBox<[UUID: CachedSnapshot]>([:])
    /// Bounds the cache's memory; beyond it an arbitrary entry makes room.
    private let maxEntries = 20_000

    struct CachedSnapshot: Sendable {
        let version: Int64
        let catalogRevision: String
        let snapshot: Snapshot
        let body: Data
    }

    init(signer: SnapshotSigner, offlineGraceSeconds: Int, cacheEnabled: Bool) {
        self.signer = signer
        offlineGrace = TimeInterval(offlineGraceSeconds)
        refreshAfter = TimeInterval(offlineGraceSeconds) / 10
        self.cacheEnabled = cacheEnabled
    }

    var publicKey: String { signer.publicKey }

    /// A signed snapshot of the ledger as of `now`.
    ///
    /// `validUntil` is `now` plus the offline grace, but never later than the earliest expiry
    /// the snapshot vouches for.
    func snapshot(accountId: UUID, version: Int64, ledger: Ledger, catalog: Catalog, at now: Date) throws -> Snapshot {
        let granted = entitlements(ledger: ledger, catalog: catalog, at: now)
        let earliestExpiry = granted.compactMap(\.expiresAt).filter { $0 > now }.min()
        let graceEnd = now.addingTimeInterval(offlineGrace)
        let transactions = ledger.records.map { record in
            var stripped = record
            stripped.signedTransaction = nil
            return stripped
        }
        let unsigned = Snapshot(
            accountId: accountId, version: version, generatedAt: now,
            validUntil: min(graceEnd, earliestExpiry ?? graceEnd), entitlements: granted, transactions: transactions,
            signature: "")
        return try signer.sign(unsigned)
    }

    /// The cached snapshot of this account at this version and catalog, if still fresh.
    func cached(accountId: UUID, version: Int64, catalogRevision: String, at now: Date) -> CachedSnapshot? {
        guard cacheEnabled else { return nil }
        guard let entry = cache.withLockedValue({ $0[accountId] }),
            entry.version == version, entry.catalogRevision == catalogRevision,
            now.timeIntervalSince(entry.snapshot.generatedAt) < refreshAfter, entry.snapshot.validUntil > now
        else { return nil }
        return entry
    }

    /// Remembers a snapshot and its encoded body.
    func store(_ snapshot: Snapshot, body: Data, catalogRevision: String) {
        guard cacheEnabled else { return }
        let entry = CachedSnapshot(version: snapshot.version, catalogRevision: catalogRevision, snapshot: snapshot, body: body)
        cache.withLockedValue { entries in
            if let existing = entries[snapshot.accountId], existing.version > entry.version { return }
            if entries.count >= maxEntries, entries[snapshot.accountId] == nil { entries.remove(at: entries.startIndex) }
            entries[snapshot.accountId] = entry
        }
    }

    /// Forgets the snapshots of accounts whose data changed.
    func invalidate(_ accounts: some Sequence<UUID>) {
        cache.withLockedValue { entries in
            for account in accounts { entries[account] = nil }
        }
    }
}
