#if os(Linux)
internal import CSchedAffinity
#endif

/// Runs the slices of one CPU-bound job each on a core of its own.
///
/// A restore verifies its signed texts in one task per core. Linux often wakes the pool thread
/// that takes the second task on the core the first is running on, and leaves the two taking
/// turns there while the other core idles, until its load balancer moves one: it spares a
/// thread that ran moments ago (cache-hot, by its reckoning) for a few balancing ticks. On the
/// bench's two cores that was the first 6–14 ms of most 21 ms verifications of 1,000 texts
/// (PERFORMANCE.md, "Where the ~70 ms of a 1,000-entry restore go").
///
/// While a slice runs, its thread may run only on the core of the slice's number: the kernel
/// moves it there at once, and cannot put it back beside another slice. When the slice ends,
/// the thread gets back the affinity it had, by its thread id, so even a slice that suspended
/// and finished on another thread leaves no thread held to one core.
///
/// Only when the job has exactly one slice per core the thread may run on. A process allowed
/// more cores than it has slices (held to fewer by a CPU quota, or sharing a large machine)
/// leaves the choice of cores to the kernel, which knows which are free. Elsewhere than Linux,
/// the slice simply runs.
///
/// `package`, not internal: `storesync-bench` verifies its restore floor the same way.
package enum CoreSpread {
    /// Runs `body` with the calling thread held to the core of `slice` (the `slice`-th of the
    /// cores it may run on) when `slices` is how many cores that is; otherwise just runs it.
    ///
    /// - Parameters:
    ///   - slice: The slice's number, from 0.
    ///   - slices: How many slices the job has.
    ///   - body: The slice's work.
    package static func onOwnCore<Result>(
        slice: Int, of slices: Int, _ body: () async throws -> Result
    ) async rethrows -> Result {
        #if os(Linux)
        guard slices > 1, let held = HeldThread(toCoreOf: slice, of: slices) else { return try await body() }
        defer { held.release() }
        #endif
        return try await body()
    }
}

/// A thread's CPU affinity: the CPUs it may run on, as the kernel's bit mask.
struct AffinityMask: Equatable {
    /// Words of the mask: 1,024 CPUs, as many as glibc's `cpu_set_t` holds.
    static let words = 16

    var bits: [UInt]

    /// A mask allowing `core` alone.
    init(only core: Int) {
        bits = [UInt](repeating: 0, count: Self.words)
        bits[core / UInt.bitWidth] = 1 << UInt(core % UInt.bitWidth)
    }

    init(bits: [UInt]) { self.bits = bits }

    /// The CPU numbers the mask allows, ascending.
    var cores: [Int] {
        bits.indices.flatMap { word in
            (0..<UInt.bitWidth).lazy.filter { bits[word] >> UInt($0) & 1 == 1 }.map { word * UInt.bitWidth + $0 }
        }
    }

    #if os(Linux)
    private static var byteCount: UInt { UInt(words * MemoryLayout<UInt>.size) }

    /// The calling thread's id, by which ``of(thread:)`` and ``apply(to:)`` name it anywhere.
    static var callingThread: Int { storesync_thread_id() }

    /// The affinity of thread `thread` (0: the calling thread); `nil` when the kernel does not tell.
    static func of(thread: Int = 0) -> AffinityMask? {
        var bits = [UInt](repeating: 0, count: words)
        guard storesync_get_thread_affinity(thread, &bits, byteCount) > 0 else { return nil }
        return AffinityMask(bits: bits)
    }

    /// Sets thread `thread`'s affinity (0: the calling thread) to this mask; answers whether
    /// the kernel took it.
    @discardableResult
    func apply(to thread: Int = 0) -> Bool {
        storesync_set_thread_affinity(thread, bits, Self.byteCount) == 0
    }
    #endif
}

#if os(Linux)
/// A thread held to one core, and the affinity it gets back.
struct HeldThread {
    let thread: Int
    let previous: AffinityMask

    /// Holds the calling thread to the core of `slice` when the thread may run on exactly
    /// `slices` cores; `nil` (nothing changed) otherwise.
    init?(toCoreOf slice: Int, of slices: Int) {
        guard let allowed = AffinityMask.of() else { return nil }
        let cores = allowed.cores
        guard cores.count == slices else { return nil }
        let thread = AffinityMask.callingThread
        guard thread > 0, AffinityMask(only: cores[slice % slices]).apply(to: thread) else { return nil }
        self.thread = thread
        self.previous = allowed
    }

    /// Gives the thread its affinity back, from whichever thread calls.
    func release() {
        previous.apply(to: thread)
    }
}
#endif
