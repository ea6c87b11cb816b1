public import Foundation
public import StoreSyncCore

/// The account's entitlements at a moment, as the last verified snapshot states them, and
/// whether that snapshot may still be trusted offline.
public struct EntitlementStatus: Sendable, Hashable {
    /// How far the snapshot behind this status may be trusted.
    public enum Freshness: Sendable, Hashable {
        /// Within the snapshot's `validUntil`: answer from it.
        case fresh
        /// Past `validUntil`: the app must refresh before granting anything.
        case stale
        /// No verified snapshot (signed out, never synced, or the cached one was discarded).
        case none
    }

    /// The snapshot's entitlements still running at the moment asked about (lifetime, or
    /// expiring later). Listed even when ``freshness`` is ``Freshness/stale``, for display;
    /// grant access with ``grants(_:)``, which refuses a stale snapshot.
    public var entitlements: [Entitlement]
    /// Whether the snapshot may be trusted.
    public var freshness: Freshness
    /// Until when the snapshot may be used offline.
    public var validUntil: Date?
    /// When the server derived the snapshot.
    public var generatedAt: Date?
    /// The account version the snapshot describes.
    public var version: Int64?

    /// Creates a status.
    ///
    /// - Parameters:
    ///   - entitlements: Entitlements running at the moment asked about.
    ///   - freshness: Whether the snapshot may be trusted.
    ///   - validUntil: The snapshot's offline limit.
    ///   - generatedAt: When the snapshot was derived.
    ///   - version: The account version.
    public init(
        entitlements: [Entitlement], freshness: Freshness, validUntil: Date? = nil, generatedAt: Date? = nil,
        version: Int64? = nil
    ) {
        self.entitlements = entitlements
        self.freshness = freshness
        self.validUntil = validUntil
        self.generatedAt = generatedAt
        self.version = version
    }

    /// The status when there is no verified snapshot.
    public static let none = EntitlementStatus(entitlements: [], freshness: .none)

    /// Whether the snapshot's `validUntil` has passed.
    public var isStale: Bool { freshness == .stale }

    /// Whether access to an entitlement may be granted: listed, and the snapshot fresh.
    ///
    /// - Parameter entitlementId: The entitlement id, e.g. `premium`.
    /// - Returns: `true` only with a fresh snapshot that lists it.
    public func grants(_ entitlementId: String) -> Bool {
        freshness == .fresh && entitlements.contains { $0.entitlementId == entitlementId }
    }
}
