import NIOConcurrencyHelpers
public import StoreSyncClient

/// A ``ConnectivityMonitor`` the test drives: ``networkCameBack()`` is the moment a path
/// monitor would report the network back.
public final class SimulatedConnectivity: ConnectivityMonitor {
    private let continuations = NIOLockedValueBox<[AsyncStream<Void>.Continuation]>([])

    /// Creates a monitor with no listener.
    public init() {}

    /// A stream that yields at each ``networkCameBack()``.
    ///
    /// - Returns: The stream.
    public func restorations() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        continuations.withLockedValue { $0.append(continuation) }
        return stream
    }

    /// Reports the network back to every listener.
    public func networkCameBack() {
        for continuation in continuations.withLockedValue({ $0 }) { continuation.yield() }
    }
}
