import Foundation
import Synchronization

extension CoreSpread {
    /// How many runs of indices each worker takes, on average, in ``map(count:workers:sharing:_:)``:
    /// enough that a worker starting late or on a slower core leaves little for the other to
    /// wait on, few enough that taking a run (one atomic add) is nothing beside its work.
    static let runsPerWorker = 32

    /// `transform` applied to every index of `0..<count`, by one worker per core, each held
    /// to a core of its own (``onOwnCore(slice:of:_:)``); the results in index order.
    ///
    /// The workers take short contiguous runs of indices in turn until none is left, rather
    /// than a fixed half each: a worker whose core runs slower (another process on it, the
    /// machine's neighbours) or that starts late (the kernel woke its thread behind the other)
    /// takes fewer runs, and the job ends about when the faster core runs out of work. With a
    /// fixed half each, a restore's signature checks waited for the slower half.
    ///
    /// Each result is moved into place where it is made, never copied: a result that is a
    /// record holds a dozen references, each retained and released by a copy.
    ///
    /// - Parameters:
    ///   - count: How many indices.
    ///   - workers: How many workers; the cores the process may use, unless a test says.
    ///   - makeState: Makes a worker's own state, shared by the indices it transforms.
    ///   - transform: The work for one index.
    package static func map<State, Result: Sendable>(
        count: Int, workers: Int = ProcessInfo.processInfo.activeProcessorCount,
        sharing makeState: @escaping @Sendable () -> State,
        _ transform: @escaping @Sendable (inout State, Int) async -> Result
    ) async -> [Result] {
        guard count > 0 else { return [] }
        let workers = max(1, min(workers, count))
        let runs = Runs(count: count, length: runLength(count: count, workers: workers))
        let results = Slots<Result>(count: count)
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    await onOwnCore(slice: worker, of: workers) {
                        var state = makeState()
                        while let run = runs.next() {
                            for index in run { results.initialize(index, to: await transform(&state, index)) }
                        }
                    }
                }
            }
        }
        return results.array()
    }

    /// The indices in a run of ``map(count:workers:sharing:_:)``: about ``runsPerWorker`` runs
    /// per worker, at least one index each.
    static func runLength(count: Int, workers: Int) -> Int {
        max(1, count / (max(1, workers) * runsPerWorker))
    }

    /// The runs of `0..<count`, handed out in order to whichever worker asks.
    private final class Runs: Sendable {
        let count: Int
        let length: Int
        private let taken = Atomic<Int>(0)

        init(count: Int, length: Int) {
            self.count = count
            self.length = length
        }

        /// The next run not taken; `nil` when every run is.
        func next() -> Range<Int>? {
            let start = taken.wrappingAdd(length, ordering: .relaxed).oldValue
            guard start < count else { return nil }
            return start..<min(count, start + length)
        }
    }

    /// Room for `count` results, each slot written once by the worker that made it; the
    /// workers' runs never share a slot, and the array is made only after every worker ended.
    private final class Slots<Element>: @unchecked Sendable {
        private let base: UnsafeMutablePointer<Element>
        private let count: Int
        private var moved = false

        init(count: Int) {
            self.count = count
            base = .allocate(capacity: count)
        }

        func initialize(_ index: Int, to value: consuming Element) {
            (base + index).initialize(to: value)
        }

        /// The results, moved out: call once, after every slot is written.
        func array() -> [Element] {
            moved = true
            return [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
                buffer.baseAddress!.moveInitialize(from: base, count: count)
                initialized = count
            }
        }

        deinit {
            if !moved { base.deinitialize(count: count) }
            base.deallocate()
        }
    }
}
