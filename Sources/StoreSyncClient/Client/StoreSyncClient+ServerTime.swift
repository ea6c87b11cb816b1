import Foundation
import StoreSyncAPI

/// Server time on this device: each partition's ``SnapshotClock``, measured when a snapshot is
/// kept and moved forward whenever the app asks about entitlements now.
extension StoreSyncClient {
    /// The partition's clock record; `nil` for a cache written before clocks were recorded,
    /// whose device clock is then taken as the server's.
    func snapshotClock(in partition: CachePartition) -> SnapshotClock? {
        read(SnapshotClock.self, .clock, in: partition)
    }

    /// A device time as the server's clock reads it.
    func serverTime(at deviceTime: Date, clock: SnapshotClock?) -> Date {
        clock?.serverTime(at: deviceTime, on: installationId) ?? deviceTime
    }

    /// Measures the device's clock against a snapshot about to be kept. The latest time seen
    /// starts again from the snapshot's: the server's word replaces whatever the device's clock
    /// said before (a clock that ran days ahead, then was corrected).
    func measureClock(against snapshot: Snapshot, in partition: CachePartition) throws(StoreSyncClientError) {
        try write(SnapshotClock(measuring: snapshot.generatedAt, at: now(), by: installationId), .clock, in: partition)
    }

    /// Moves the latest server time seen forward to `serverTime`, saving it once it has moved
    /// ``SnapshotClock/saveStep`` past the saved one; an earlier time changes nothing.
    func noteServerTime(_ serverTime: Date, clock: SnapshotClock?, in partition: CachePartition) {
        if let clock, serverTime < clock.latestServerTime.addingTimeInterval(SnapshotClock.saveStep) { return }
        var updated = clock ?? SnapshotClock(unmeasuredAt: serverTime)
        updated.latestServerTime = serverTime
        // Best effort: unsaved, the mark only trails the clock, and catches a set-back later.
        try? write(updated, .clock, in: partition)
    }
}
