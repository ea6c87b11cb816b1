/// Tells ``StoreSyncClient`` when the network comes back, so the outbox is flushed at once
/// rather than at its next backoff: `PathMonitor` on Apple platforms; tests drive their own.
public protocol ConnectivityMonitor: Sendable {
    /// A stream that yields each time a usable network path returns after being lost.
    ///
    /// - Returns: A new stream; it stops monitoring when its consumer goes away.
    func restorations() -> AsyncStream<Void>
}
