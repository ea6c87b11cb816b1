public import Foundation
import StoreSyncAPI
import StoreSyncCore

extension StoreSyncClient {
    /// The signed-in account's entitlements at a moment, from the last verified snapshot —
    /// no network. Past the snapshot's `validUntil` the status is stale and grants nothing
    /// until ``refresh()`` or ``restore(userInitiated:dryRun:)`` brings a new one.
    ///
    /// - Parameter date: The moment; subscriptions that end before it are left out.
    /// - Returns: The entitlements and their freshness; ``EntitlementStatus/none`` when no
    ///   account is signed in or no verified snapshot is cached.
    public func entitlements(at date: Date) -> EntitlementStatus {
        guard let ticket = currentTicket(), let snapshot = verifiedSnapshot(in: ticket.partition) else { return .none }
        let running = snapshot.entitlements.filter { entitlement in
            entitlement.expiresAt.map { $0 > date } ?? true
        }
        return EntitlementStatus(
            entitlements: running, freshness: date < snapshot.validUntil ? .fresh : .stale,
            validUntil: snapshot.validUntil, generatedAt: snapshot.generatedAt, version: snapshot.version)
    }

    /// The signed-in account's entitlements now.
    ///
    /// - Returns: The entitlements and their freshness.
    public func entitlements() -> EntitlementStatus {
        entitlements(at: now())
    }

    /// Whether the signed-in account may use an entitlement at a moment: the last verified
    /// snapshot lists it as running then, and the snapshot is still fresh.
    ///
    /// - Parameters:
    ///   - entitlementId: The entitlement id, e.g. `premium`.
    ///   - date: The moment.
    /// - Returns: `false` without a fresh verified snapshot, whatever the cache says.
    public func isEntitled(to entitlementId: String, at date: Date) -> Bool {
        entitlements(at: date).grants(entitlementId)
    }

    /// Whether the signed-in account may use an entitlement now.
    ///
    /// - Parameter entitlementId: The entitlement id.
    /// - Returns: `false` without a fresh verified snapshot.
    public func isEntitled(to entitlementId: String) -> Bool {
        isEntitled(to: entitlementId, at: now())
    }
}
