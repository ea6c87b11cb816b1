#if os(Linux)
internal import CSchedAffinity
#endif

/// Puts the slices of one CPU-bound job on cores of their own.
///
/// A restore verifies its signed texts in one task per core. Linux often wakes the pool thread
/// that takes the second task on the core the first is running on, and leaves the two taking
/// turns there while the other core idles, until its load balancer moves one: it spares a
/// thread that ran moments ago (cache-hot, by its reckoning) for a few balancing ticks. On the
/// bench's two cores that was the first 6–14 ms of most 21 ms verifications of 1,000 texts
/// (PERFORMANCE.md, "Where a restore's time goes").
///
/// Each slice's thread moves itself to the core of its slice number as the slice starts: for
/// that moment its affinity allows that core alone, so the kernel moves it at once, and the
/// affinity it had is restored before the work begins. Nothing stays pinned, and the kernel
/// has no reason to move a thread back to a core that is busy.
///
/// Only when the job has exactly one slice per core the thread may run on. A process allowed
/// more cores than it has slices (held to fewer by a CPU quota, or sharing a large machine)
/// leaves the choice of cores to the kernel, which knows which are free. Elsewhere than Linux,
/// nothing.
///
/// `package`, not internal: `storesync-bench` verifies its restore floor the same way.
package enum CoreSpread {
    /// Moves the calling thread to the core of `slice` (the `slice`-th of the cores it may run
    /// on) when `slices` is how many cores that is; otherwise does nothing. The thread's
    /// affinity is the same afterwards.
    ///
    /// - Parameters:
    ///   - slice: The slice's number, from 0.
    ///   - slices: How many slices the job has.
    package static func moveToOwnCore(slice: Int, of slices: Int) {
        #if os(Linux)
        guard slices > 1, let allowed = AffinityMask.ofCallingThread() else { return }
        let cores = allowed.cores
        guard cores.count == slices, allowed.applyToCallingThread(only: cores[slice % slices]) else { return }
        _ = allowed.applyToCallingThread()
        #endif
    }
}

/// A thread's CPU affinity: the CPUs it may run on, as the kernel's bit mask.
struct AffinityMask: Equatable {
    /// Words of the mask: 1,024 CPUs, as many as glibc's `cpu_set_t` holds.
    static let words = 16

    var bits: [UInt]

    /// The CPU numbers the mask allows, ascending.
    var cores: [Int] {
        bits.indices.flatMap { word in
            (0..<UInt.bitWidth).lazy.filter { bits[word] >> UInt($0) & 1 == 1 }.map { word * UInt.bitWidth + $0 }
        }
    }

    #if os(Linux)
    private static var byteCount: UInt { UInt(words * MemoryLayout<UInt>.size) }

    /// The calling thread's affinity; `nil` when the kernel does not tell.
    static func ofCallingThread() -> AffinityMask? {
        var bits = [UInt](repeating: 0, count: words)
        guard storesync_get_thread_affinity(&bits, byteCount) > 0 else { return nil }
        return AffinityMask(bits: bits)
    }

    /// Sets the calling thread's affinity to this mask, or to `core` alone; answers whether the
    /// kernel took it.
    func applyToCallingThread(only core: Int? = nil) -> Bool {
        var applied = bits
        if let core {
            applied = [UInt](repeating: 0, count: Self.words)
            applied[core / UInt.bitWidth] = 1 << UInt(core % UInt.bitWidth)
        }
        return storesync_set_thread_affinity(applied, Self.byteCount) == 0
    }
    #endif
}
