import NIOPosix
import Synchronization

/// Gives the memory of large requests back to the operating system once they stop for a
/// moment (``HeapMemory/trim()``), so the server's resident size falls back to what lookups
/// need after a burst of restores.
///
/// Not after every request: back-to-back restores reuse what the last one freed, and trimming
/// between them would only make each fault its pages in again. The trim runs on NIO's blocking
/// thread pool, never on a request's path or Swift's cooperative pool.
final class HeapTrimmer: Sendable {
    /// A request body at least this large (or of undeclared length) counts as large.
    static let largeBody = 1 << 20

    /// How long no large request may run before the heap is trimmed.
    let quiet: Duration
    private let threadPool: NIOThreadPool
    private let trim: @Sendable () -> Void
    private let state = Mutex(State())

    /// Large requests under way, and a count of starts and ends that a pending trim compares
    /// to know that none came and went while it waited.
    private struct State {
        var inFlight = 0
        var changes: UInt64 = 0
    }

    /// Creates a trimmer.
    ///
    /// - Parameters:
    ///   - quiet: How long no large request may run before the heap is trimmed.
    ///   - threadPool: Where the trim runs.
    ///   - trim: What trimming is (tests count it).
    init(
        quiet: Duration = .seconds(1), threadPool: NIOThreadPool = .singleton,
        trim: @escaping @Sendable () -> Void = HeapMemory.trim
    ) {
        self.quiet = quiet
        self.threadPool = threadPool
        self.trim = trim
    }

    /// A large request starts.
    func started() {
        state.withLock { state in
            state.inFlight += 1
            state.changes &+= 1
        }
    }

    /// A large request ended: the heap is trimmed after ``quiet`` unless another one starts.
    func ended() {
        let changes: UInt64? = state.withLock { state in
            state.inFlight -= 1
            state.changes &+= 1
            return state.inFlight == 0 ? state.changes : nil
        }
        guard let changes else { return }
        Task.detached { [self] in
            try? await Task.sleep(for: quiet)
            guard state.withLock({ $0.inFlight == 0 && $0.changes == changes }) else { return }
            try? await threadPool.runIfActive(trim)
        }
    }
}
