import Foundation
import Synchronization
import Testing

@testable import StoreSyncServer

/// A job's indices (a restore's texts) go to the workers in short runs, taken in turn: every
/// index is transformed once, the results come back in order, and a worker held up leaves the
/// rest to the others.
@Suite struct CoreSpreadRunsTests {
    @Test(arguments: [(0, 2), (1, 2), (2, 2), (7, 2), (63, 2), (64, 2), (1_000, 2), (1_000, 3), (5, 8), (2_000, 1)])
    func everyIndexIsTransformedOnceAndTheResultsComeInOrder(count: Int, workers: Int) async {
        let seen = Mutex([Int](repeating: 0, count: count))
        let results = await CoreSpread.map(count: count, workers: workers, sharing: {}) { _, index in
            seen.withLock { $0[index] += 1 }
            return "result \(index)"
        }
        #expect(results == (0..<count).map { "result \($0)" })
        #expect(seen.withLock { $0 } == [Int](repeating: 1, count: count))
    }

    /// Each worker's state is its own: the indices the states saw are every index, once, and
    /// each state saw whole runs of contiguous indices.
    @Test func eachWorkerSharesAStateOfItsOwnAcrossItsRuns() async {
        let count = 1_000
        let workers = Workers()
        _ = await CoreSpread.map(count: count, workers: 2, sharing: { Worker(workers) }) { worker, index in
            worker.indices.append(index)
        }
        let seen = workers.seen
        #expect(seen.count <= 2)
        #expect(seen.joined().sorted() == Array(0..<count))
        let length = CoreSpread.runLength(count: count, workers: 2)
        for indices in seen {
            // A run is taken whole by one worker, in order.
            for run in stride(from: 0, to: indices.count, by: length) {
                let part = indices[run..<min(indices.count, run + length)]
                #expect(part.first! % length == 0)
                #expect(Array(part) == Array(part.first!..<(part.first! + part.count)))
            }
        }
    }

    /// A worker held up on its first index (a slower core, a thread woken late) leaves every
    /// other run to the other worker: the job waits for one run, not for half of it.
    @Test func aWorkerHeldUpLeavesTheOtherRunsToTheOther() async {
        let count = 640
        let length = CoreSpread.runLength(count: count, workers: 2)
        let others = Mutex(0)
        let (released, release) = AsyncStream<Void>.makeStream()
        let all = Workers()
        _ = await CoreSpread.map(count: count, workers: 2, sharing: { Worker(all) }) { worker, index in
            worker.indices.append(index)
            if index == 0 {
                // Held until every index outside the first run is done.
                for await _ in released { break }
            } else if index >= length, others.withLock({ $0 += 1; return $0 }) == count - length {
                release.yield()
            }
        }
        let workers = all.seen.sorted { $0.first ?? 0 < $1.first ?? 0 }
        #expect(workers.count == 2)
        #expect(workers.first == Array(0..<length), "the held worker did only its first run")
        #expect(workers.last == Array(length..<count))
    }

    @Test func runsAreShortButNeverEmpty() {
        #expect(CoreSpread.runLength(count: 1_000, workers: 2) == 1_000 / (2 * CoreSpread.runsPerWorker))
        #expect(CoreSpread.runLength(count: 10, workers: 2) == 1)
        #expect(CoreSpread.runLength(count: 0, workers: 0) == 1)
    }

    /// The indices each worker's state saw, in the order it saw them.
    final class Workers: Sendable {
        private let indices = Mutex<[[Int]]>([])
        var seen: [[Int]] { indices.withLock { $0 } }
        func add(_ seen: [Int]) { indices.withLock { $0.append(seen) } }
    }

    /// A worker's state: the indices it saw, handed to ``Workers`` when the worker ends.
    final class Worker {
        var indices: [Int] = []
        let workers: Workers
        init(_ workers: Workers) { self.workers = workers }
        deinit { workers.add(indices) }
    }
}
