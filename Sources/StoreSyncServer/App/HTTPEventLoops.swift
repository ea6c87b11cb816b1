import NIOCore
import NIOPosix
import Synchronization

/// The NIO event loops that read and write the server's HTTP connections.
///
/// The event loops only parse requests and write answers; every handler runs on Swift
/// Concurrency's threads, one per core. With an event loop per core as well (Hummingbird's
/// default, kept), a machine that also runs PostgreSQL has twice as many busy threads as cores.
/// Fewer loops trade the HTTP ceiling for less thread switching: on a small machine at low
/// concurrency one loop costs less CPU per request, at high concurrency it serves fewer
/// (PERFORMANCE.md has the figures). Set it below the core count only where concurrency stays low.
enum HTTPEventLoops {
    /// One per core the process may use (Hummingbird's default, and the size of NIO's
    /// singleton group), at most ``allowedCounts``' largest: a host with more cores than that
    /// starts with the largest rather than refusing a setting nobody set.
    static var defaultCount: Int { defaultCount(forCores: NIOSingletons.groupLoopCountSuggestion) }

    /// The default for a process that may use `cores` cores.
    static func defaultCount(forCores cores: Int) -> Int { min(max(cores, 1), allowedCounts.upperBound) }

    /// How many event loops a server may be given.
    static let allowedCounts = 1...256

    /// Groups by thread count, shared by every server in the process and never shut down,
    /// like NIO's own singleton: tests start many servers, and each would otherwise leave its
    /// threads behind.
    private static let groups = Mutex<[Int: MultiThreadedEventLoopGroup]>([:])

    /// The process's group of `threads` event loops, created on first use.
    ///
    /// - Parameter threads: Event loops in the group, within ``allowedCounts``.
    static func group(threads: Int) -> any EventLoopGroup {
        precondition(allowedCounts.contains(threads), "event loops are \(allowedCounts), got \(threads)")
        if threads == defaultCount { return MultiThreadedEventLoopGroup.singleton }
        return groups.withLock { groups in
            if let group = groups[threads] { return group }
            let group = MultiThreadedEventLoopGroup(numberOfThreads: threads)
            groups[threads] = group
            return group
        }
    }
}
