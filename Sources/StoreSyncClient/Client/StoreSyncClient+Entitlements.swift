public import Foundation
import StoreSyncAPI
import StoreSyncCore

extension StoreSyncClient {
    /// The signed-in account's entitlements at a moment, from the last verified snapshot —
    /// no network. Past the snapshot's `validUntil` the status is stale and grants nothing
    /// until ``refresh()`` or ``restore(userInitiated:dryRun:)`` brings a new one.
    ///
    /// Time is the server's: the moment is read on the device's clock and corrected by how far
    /// that clock stood from the server's when the snapshot arrived. A moment earlier than the
    /// snapshot, or than the latest time the device has been seen at (by more than a few
    /// minutes), is stale too: a clock set back never revives a snapshot.
    ///
    /// - Parameter date: The moment, on the device's clock; subscriptions that end before it
    ///   are left out.
    /// - Returns: The entitlements and their freshness; ``EntitlementStatus/none`` when no
    ///   account is signed in or no verified snapshot is cached.
    public func entitlements(at date: Date) -> EntitlementStatus {
        status(at: date, isNow: false)
    }

    /// The signed-in account's entitlements now.
    ///
    /// - Returns: The entitlements and their freshness.
    public func entitlements() -> EntitlementStatus {
        status(at: now(), isNow: true)
    }

    /// Whether the signed-in account may use an entitlement at a moment: the last verified
    /// snapshot lists it as running then, and the snapshot is still fresh.
    ///
    /// - Parameters:
    ///   - entitlementId: The entitlement id, e.g. `premium`.
    ///   - date: The moment, on the device's clock.
    /// - Returns: `false` without a fresh verified snapshot, whatever the cache says.
    public func isEntitled(to entitlementId: String, at date: Date) -> Bool {
        entitlements(at: date).grants(entitlementId)
    }

    /// Whether the signed-in account may use an entitlement now.
    ///
    /// - Parameter entitlementId: The entitlement id.
    /// - Returns: `false` without a fresh verified snapshot.
    public func isEntitled(to entitlementId: String) -> Bool {
        entitlements().grants(entitlementId)
    }

    /// The status at a device time. Only the device's own now moves the latest time seen
    /// forward: a moment the app asks about may be hypothetical.
    private func status(at deviceTime: Date, isNow: Bool) -> EntitlementStatus {
        guard let ticket = currentTicket(), let snapshot = verifiedSnapshot(in: ticket.partition) else { return .none }
        let clock = snapshotClock(in: ticket.partition)
        let moment = serverTime(at: deviceTime, clock: clock)
        let freshness = SnapshotClock.freshness(of: snapshot, at: moment, clock: clock)
        if isNow { noteServerTime(moment, clock: clock, in: ticket.partition) }
        let running = snapshot.entitlements.filter { entitlement in
            entitlement.expiresAt.map { $0 > moment } ?? true
        }
        return EntitlementStatus(
            entitlements: running, freshness: freshness, validUntil: snapshot.validUntil,
            generatedAt: snapshot.generatedAt, version: snapshot.version)
    }
}
