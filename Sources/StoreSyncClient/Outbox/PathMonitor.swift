#if canImport(Network)
import Dispatch
import Network

/// The ``ConnectivityMonitor`` of Apple platforms: `NWPathMonitor`, reporting each change of
/// the path's status from unsatisfied to satisfied.
public struct PathMonitor: ConnectivityMonitor {
    /// Creates a monitor of every interface.
    public init() {}

    /// A stream that yields whenever the path becomes satisfied again.
    ///
    /// - Returns: The stream; each has its own `NWPathMonitor`, cancelled when the stream ends.
    public func restorations() -> AsyncStream<Void> {
        AsyncStream { continuation in
            let state = PathState()
            state.monitor.pathUpdateHandler = { path in
                let satisfied = path.status == .satisfied
                if satisfied, state.wasSatisfied == false { continuation.yield() }
                state.wasSatisfied = satisfied
            }
            continuation.onTermination = { _ in state.monitor.cancel() }
            state.monitor.start(queue: DispatchQueue(label: "storesync.path-monitor"))
        }
    }
}

/// One stream's monitor and the last status it reported.
private final class PathState: @unchecked Sendable {  // `wasSatisfied` is only touched on the monitor's serial queue.
    let monitor = NWPathMonitor()
    var wasSatisfied: Bool?
}
#endif
