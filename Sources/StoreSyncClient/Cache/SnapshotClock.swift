import Foundation
import StoreSyncAPI

/// How this device's clock stands against the server's, kept beside each partition's snapshot:
/// a snapshot's offline validity is judged in server time, so a device clock days ahead does
/// not deny the snapshot just fetched, and a clock set back does not revive one that ran out.
///
/// The offset is measured when a snapshot is kept, against its signed `generatedAt` (a server
/// answers with a snapshot at most a minute old, so the server's time is known to that much).
/// Between snapshots, the latest server time seen only moves forward: a device time that falls
/// more than ``tolerance`` behind it, or behind the snapshot's `generatedAt`, means the clock
/// was set back, and the snapshot is stale until a refresh measures the clock again.
struct SnapshotClock: Codable, Sendable, Hashable {
    /// Server time minus device time, in seconds.
    var offset: TimeInterval
    /// The installation that measured ``offset``, `nil` when none did: a cache shared through
    /// iCloud carries another device's offset, which says nothing about this device's clock.
    var measuredBy: UUID?
    /// The latest server time this partition's snapshot was looked at.
    var latestServerTime: Date

    /// How far behind the latest time seen (or the snapshot's `generatedAt`) the clock may fall
    /// without counting as set back: clocks are nudged by seconds now and then, and a snapshot's
    /// `generatedAt` may be a minute older than the answer that brought it.
    static let tolerance: TimeInterval = 300

    /// How far the latest time seen moves before it is saved again, so a UI that asks many
    /// times a second does not write each time; it stays well within ``tolerance``.
    static let saveStep: TimeInterval = 60

    /// The clock as measured by `installation` against a snapshot the server generated at
    /// `serverTime`, kept when the device's clock read `deviceTime`.
    init(measuring serverTime: Date, at deviceTime: Date, by installation: UUID) {
        offset = serverTime.timeIntervalSince(deviceTime)
        measuredBy = installation
        latestServerTime = serverTime
    }

    /// A clock nobody measured (a cache older than clock records): the device's clock is taken
    /// as the server's.
    init(unmeasuredAt serverTime: Date) {
        offset = 0
        measuredBy = nil
        latestServerTime = serverTime
    }

    /// A device time as the server's clock reads it; only this installation's own measurement
    /// corrects it.
    func serverTime(at deviceTime: Date, on installation: UUID) -> Date {
        measuredBy == installation ? deviceTime.addingTimeInterval(offset) : deviceTime
    }

    /// Whether a snapshot may be trusted at a server time: before its `validUntil`, and not
    /// earlier than the snapshot itself or the latest time seen (beyond ``tolerance``).
    ///
    /// - Parameters:
    ///   - snapshot: The verified snapshot.
    ///   - serverTime: The moment, in server time.
    ///   - clock: The partition's clock record, if any.
    static func freshness(of snapshot: Snapshot, at serverTime: Date, clock: SnapshotClock?) -> EntitlementStatus.Freshness {
        let latestKnown = max(snapshot.generatedAt, clock?.latestServerTime ?? .distantPast)
        let setBack = serverTime < latestKnown.addingTimeInterval(-tolerance)
        return !setBack && serverTime < snapshot.validUntil ? .fresh : .stale
    }
}
