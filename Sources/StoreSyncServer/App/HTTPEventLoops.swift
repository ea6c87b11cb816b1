import NIOCore
import NIOPosix
import Synchronization

/// The NIO event loops that read and write the server's HTTP connections.
///
/// The event loops only parse requests and write answers; every handler runs on Swift
/// Concurrency's threads, one per core. With an event loop per core as well (Hummingbird's
/// default, kept), a machine that also runs PostgreSQL has twice as many busy threads as cores.
/// Fewer loops trade the HTTP ceiling for less thread switching. Measured on 2 cores with
/// PostgreSQL and wrk beside the server (`storesync-bench`, one and two loops alternating):
/// one loop served uncached lookups at 16 connections with ~7 % less server CPU per request
/// (130 → 121 µs) and 2–17 % more of them, but at 64 connections 4–20 % fewer uncached
/// lookups and a lower `/health/live` ceiling (31–41k against 35–46k req/s); cached lookups
/// were even. Set it below the core count only where concurrency stays low.
enum HTTPEventLoops {
    /// One per core the process may use: Hummingbird's default, and the size of NIO's
    /// singleton group.
    static var defaultCount: Int { NIOSingletons.groupLoopCountSuggestion }

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
