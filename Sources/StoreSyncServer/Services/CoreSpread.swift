#if os(Linux)
internal import CSchedAffinity
import Glibc
#endif
import Dispatch
import Synchronization

/// Runs the slices of one CPU-bound job each on a core of its own.
///
/// A restore verifies its signed texts in one task per core. Linux often wakes the pool thread
/// that takes the second task on the core the first is running on, and leaves the two taking
/// turns there while the other core idles, until its load balancer moves one: it spares a
/// thread that ran moments ago (cache-hot, by its reckoning) for a few balancing ticks. On the
/// bench's two cores that was the first 6–14 ms of most 21 ms verifications of 1,000 texts
/// (PERFORMANCE.md, "Where the ~70 ms of a 1,000-entry restore go").
///
/// While a slice runs, its thread may run only on one core: the kernel moves it there at once,
/// and cannot put it back beside another slice. The core is the one the fewest slices are held
/// to at that moment (among equals, the one the thread is on, else the slice's own number's),
/// so slices of restores running at the same time spread too (two first slices are not both
/// held to the first core). When the slice ends, the thread gets back the affinity it had, by
/// its thread id, so even a slice that suspended and finished on another thread leaves no
/// thread held to one core.
///
/// Held, a slice first yields its core once. The thread woken for the next slice may be queued
/// on the core the first slice's thread runs on while the other core idles, and the server's
/// threads are of the batch class (``ThreadScheduling``), which never preempts: it would wait
/// there for the running thread's whole time slice (traced in PERFORMANCE.md, "Restores
/// against their floor": most of a restore's recall), and only once running would it hold
/// itself to the free core. With the yield it runs at once and moves; with nothing queued, the
/// yield answers at once.
///
/// Only when the job has exactly one slice per core the thread may run on. A process allowed
/// more cores than it has slices (held to fewer by a CPU quota, or sharing a large machine)
/// leaves the choice of cores to the kernel, which knows which are free. Elsewhere than Linux,
/// the slice simply runs.
///
/// `package`, not internal: `storesync-bench` verifies its restore floor the same way.
package enum CoreSpread {
    /// Runs `body` with the calling thread held to one core (``core(forSlice:among:holds:current:)``)
    /// when `slices` is how many cores the thread may run on; otherwise just runs it.
    ///
    /// - Parameters:
    ///   - slice: The slice's number, from 0.
    ///   - slices: How many slices the job has.
    ///   - body: The slice's work.
    package static func onOwnCore<Result>(
        slice: Int, of slices: Int, _ body: () async throws -> Result
    ) async rethrows -> Result {
        #if os(Linux)
        guard slices > 1, let held = HeldThread(forSlice: slice, of: slices) else { return try await body() }
        defer { held.release() }
        #endif
        return try await body()
    }

    /// Runs `first` on the calling thread and `second` on another at the same time, each held
    /// to a core of its own as ``onOwnCore(slice:of:_:)`` holds a slice, and answers both
    /// results once both are done. For synchronous work on a thread that may block (a
    /// connection's thread, say): the caller waits for `second` if it takes longer.
    ///
    /// - Throws: What either throws (the first's error when both do), once both are done.
    package static func concurrently<First: Sendable, Second: Sendable>(
        _ first: @Sendable () throws -> First, _ second: @Sendable () throws -> Second
    ) throws -> (First, Second) {
        let results = Mutex<(first: Result<First, any Error>?, second: Result<Second, any Error>?)>((nil, nil))
        DispatchQueue.concurrentPerform(iterations: 2) { slice in
            #if os(Linux)
            let held = HeldThread(forSlice: slice, of: 2)
            defer { held?.release() }
            #endif
            if slice == 0 {
                let result = Result { try first() }
                results.withLock { $0.first = result }
            } else {
                let result = Result { try second() }
                results.withLock { $0.second = result }
            }
        }
        let (first, second) = results.withLock { ($0.first!, $0.second!) }
        return (try first.get(), try second.get())
    }

    /// `count` indices in at most `parts` contiguous ranges of nearly equal length: a job's
    /// slices, one per core.
    package static func slices(of count: Int, into parts: Int) -> [Range<Int>] {
        let parts = max(1, min(parts, count))
        guard count > 0 else { return [] }
        return (0..<parts).map { part in (part * count / parts)..<((part + 1) * count / parts) }
    }

    /// How many running slices are held to each core, by core number.
    static let holds = Mutex<[Int: Int]>([:])

    /// The core for slice `slice`: of `cores`, one with the fewest `holds`; among those, the
    /// one the thread runs on (`current`), which spares it a move and keeps what it just read
    /// in that core's cache, else the slice's own (`cores[slice % cores.count]`), else the first.
    static func core(forSlice slice: Int, among cores: [Int], holds: [Int: Int], current: Int?) -> Int {
        let fewest = cores.map { holds[$0, default: 0] }.min() ?? 0
        let own = cores[slice % cores.count]
        let preferred = [current, own].compactMap { $0 }.filter(cores.contains)
        if let free = preferred.first(where: { holds[$0, default: 0] == fewest }) { return free }
        return cores.first { holds[$0, default: 0] == fewest } ?? own
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

    /// The core the calling thread runs on at this moment; `nil` when the kernel does not tell.
    static var currentCore: Int? {
        let core = Int(storesync_current_cpu())
        return core >= 0 ? core : nil
    }

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
/// A thread held to one core for a slice, and the affinity it gets back.
struct HeldThread {
    let thread: Int
    let core: Int
    let previous: AffinityMask

    /// Holds the calling thread to a core for slice `slice` (``CoreSpread/core(forSlice:among:holds:current:)``)
    /// when the thread may run on exactly `slices` cores, then yields that core once, so a
    /// thread queued behind it there (the next slice's, woken onto the wrong core) runs and
    /// holds itself to its own; `nil` (nothing changed) otherwise.
    init?(forSlice slice: Int, of slices: Int) {
        guard let allowed = AffinityMask.of() else { return nil }
        let cores = allowed.cores
        let thread = AffinityMask.callingThread
        guard cores.count == slices, thread > 0 else { return nil }
        let core = CoreSpread.holds.withLock { holds in
            let core = CoreSpread.core(forSlice: slice, among: cores, holds: holds, current: AffinityMask.currentCore)
            holds[core, default: 0] += 1
            return core
        }
        guard AffinityMask(only: core).apply(to: thread) else {
            CoreSpread.holds.withLock { $0[core, default: 1] -= 1 }
            return nil
        }
        self.thread = thread
        self.core = core
        self.previous = allowed
        sched_yield()
    }

    /// Gives the thread its affinity back, from whichever thread calls.
    func release() {
        previous.apply(to: thread)
        CoreSpread.holds.withLock { $0[core, default: 1] -= 1 }
    }
}
#endif
