public import StoreSyncAPI

/// What ``StoreSyncClient/refresh()`` got.
public enum RefreshOutcome: Sendable, Hashable {
    /// A new verified snapshot, now cached.
    case updated(Snapshot)
    /// The cached snapshot is current (HTTP 304).
    case notModified
}
