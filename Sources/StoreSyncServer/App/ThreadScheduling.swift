#if os(Linux)
internal import CSchedAffinity
#endif
import Foundation
public import Logging

/// The scheduling class the server's threads run in (`STORESYNC_THREAD_SCHEDULING`).
///
/// The server and PostgreSQL often share cores: the embedded cluster, a docker compose stack on
/// one host, a small VM. PostgreSQL's backend then holds the account's lock while it runs a
/// restore's statements, and every wake-up of a server thread (an event loop reading the next
/// request, a handler resuming) may preempt it in the default class: under a steady stream of
/// lookups it ran its statements a few hundred microseconds at a time and waited milliseconds
/// for each next turn. Threads of the batch class never preempt a running thread when they
/// wake; they take their turn when the running one's slice ends, and a thread of the default
/// class that wakes still preempts them. So PostgreSQL's backends keep their core while the
/// server's threads, whose work is throughput (parsing, verifying, signing), still get every
/// cycle no one else wants. PERFORMANCE.md has what it bought and cost.
public enum ThreadScheduling: String, Sendable, CaseIterable {
    /// Linux's `SCHED_BATCH`: the server never preempts another process's thread on waking.
    /// The default on Linux.
    case batch
    /// The kernel's default class (`SCHED_OTHER`): for a server with cores of its own, where
    /// nothing else is there to spare.
    case normal

    /// What `serve` runs in unless told otherwise.
    public static let `default` = ThreadScheduling.batch

    /// Puts every thread of this process in this class. Threads started afterwards inherit the
    /// class of the thread that starts them, so once every thread is in it every later one is
    /// too; the processes the server starts (the embedded PostgreSQL) are put back in the
    /// default class as they start (PostgresLibPQ's `ChildProcess`).
    ///
    /// Not a condition of serving: a thread the kernel refuses to move is logged and left as it
    /// is. Elsewhere than Linux it does nothing.
    ///
    /// - Parameter logger: Where a refusal is reported.
    public func apply(logger: Logger) {
        #if os(Linux)
        let policy = Int32(self == .batch ? storesync_sched_batch : storesync_sched_normal)
        // A thread that starts while the list is read may have been started by one not yet
        // moved; another pass finds it. Three passes in a row finding nothing left is the end.
        var quietPasses = 0
        var refusals: [Int32: Int32] = [:]
        while quietPasses < 3 {
            let moved = Self.threads().filter { thread in
                guard storesync_get_thread_policy(Int(thread)) != Int(policy), refusals[thread] == nil else { return false }
                if storesync_set_thread_policy(Int(thread), policy) == 0 { return true }
                // ESRCH: the thread ended since the list was read; nothing to report.
                if errno != ESRCH { refusals[thread] = errno }
                return false
            }
            quietPasses = moved.isEmpty ? quietPasses + 1 : 0
        }
        if let (thread, error) = refusals.first {
            logger.warning("some threads keep their scheduling class", metadata: [
                "storesync.thread_scheduling": "\(rawValue)", "storesync.threads_refused": "\(refusals.count)",
                "storesync.thread_id": "\(thread)", "storesync.error": "\(String(cString: strerror(error)))",
            ])
        }
        #endif
    }

    #if os(Linux)
    /// The ids of this process's threads.
    private static func threads() -> [Int32] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).compactMap { Int32($0) }
    }
    #endif
}
