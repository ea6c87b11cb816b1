internal import NIOPosix

/// The pool's threads as a task executor: a transaction runs its body on them, so its
/// statements block the thread it already runs on instead of each hopping there and back.
///
/// Every statement outside a transaction is two thread wake-ups: the task hands libpq's
/// blocking call to a pool thread and suspends, and the pool thread resumes the task on the
/// cooperative pool when the answer is in. Under load the resumed task then waits its turn in
/// the cooperative pool's queue behind every request being served, once per statement; a
/// restore's transaction runs ten of them. With its body preferring these threads
/// (``ConnectionPool/withTransaction(isolation:rollbackOnly:actorIsolation:_:)``), the
/// transaction pays one hop in and one out, and each statement runs where the body is
/// (``runsHere``).
///
/// No more threads are needed than before: a body running here holds one thread, as one of its
/// statements did, and never more than one at a time for its connection.
final class ConnectionThreads: TaskExecutor {
    private let threadPool: NIOThreadPool

    /// Marks the threads that run jobs of this type, whichever pool they belong to: on any of
    /// them blocking is allowed.
    private static let marker = ThreadSpecificVariable<Marker>()
    private final class Marker: Sendable {}
    private static let mark = Marker()

    init(threadPool: NIOThreadPool) {
        self.threadPool = threadPool
    }

    /// Whether the current thread is a pool thread, where a statement may block in place.
    static var runsHere: Bool { marker.currentValue != nil }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        threadPool.submit { state in
            guard case .active = state else {
                // The pool is shutting down: the task still has to finish, and its statements
                // fail as any statement does on a pool that has shut down.
                globalConcurrentExecutor.enqueue(ExecutorJob(job))
                return
            }
            if Self.marker.currentValue == nil { Self.marker.currentValue = Self.mark }
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }
}
