import Foundation
import Synchronization
import Testing

@testable import StoreSyncServer

/// A slice runs held to its own core when the job has one slice per core, and its thread gets
/// its affinity back afterwards, from whichever thread the slice ended on.
@Suite(.serialized) struct CoreSpreadTests {
    @Test func aMaskNamesTheCoresOfItsSetBitsInOrder() {
        var bits = [UInt](repeating: 0, count: AffinityMask.words)
        bits[0] = 0b1011
        bits[2] = 1 << 3 | 1 << 63
        #expect(AffinityMask(bits: bits).cores == [0, 1, 3, 131, 191])
        #expect(AffinityMask(only: 70).cores == [70])
        #expect(AffinityMask(bits: [UInt](repeating: 0, count: AffinityMask.words)).cores.isEmpty)
    }

    /// A job's elements (a restore's entries) go in one contiguous slice per core.
    @Test(arguments: [(0, 2), (1, 2), (5, 2), (1_000, 2), (7, 3), (3, 8)])
    func slicesCoverEveryEntryOnceInOrder(count: Int, parts: Int) {
        let slices = CoreSpread.slices(of: count, into: parts)
        #expect(slices.flatMap { Array($0) } == Array(0..<count))
        #expect(slices.count == min(parts, count))
        #expect(slices.allSatisfy { !$0.isEmpty })
        if let longest = slices.map(\.count).max(), let shortest = slices.map(\.count).min() {
            #expect(longest - shortest <= 1)
        }
    }

    @Test func aSliceGoesToTheCoreFewestSlicesAreHeldTo() {
        let cores = [0, 1, 2, 3]
        // Nothing held: each slice to its own number's core.
        #expect((0..<4).map { CoreSpread.core(forSlice: $0, among: cores, holds: [:], current: nil) } == cores)
        // A first slice while another restore's first slice holds core 0: the next free core.
        #expect(CoreSpread.core(forSlice: 0, among: cores, holds: [0: 1], current: nil) == 1)
        // Its own core is among the least held: its own.
        #expect(CoreSpread.core(forSlice: 2, among: cores, holds: [0: 1, 1: 1], current: nil) == 2)
        // Every core held once: its own again.
        #expect(CoreSpread.core(forSlice: 3, among: cores, holds: [0: 1, 1: 1, 2: 1, 3: 1], current: nil) == 3)
        #expect(CoreSpread.core(forSlice: 1, among: [4, 9], holds: [9: 2, 4: 1], current: nil) == 4)
    }

    /// Among the least held cores, the thread stays where it is: no move, and what it just read
    /// is still in that core's cache.
    @Test func aSliceStaysOnTheCoreItRunsOnWhenThatIsAmongTheLeastHeld() {
        let cores = [0, 1, 2, 3]
        #expect(CoreSpread.core(forSlice: 0, among: cores, holds: [:], current: 2) == 2)
        #expect(CoreSpread.core(forSlice: 1, among: cores, holds: [2: 1], current: 2) == 1, "its core is held: its own")
        #expect(CoreSpread.core(forSlice: 0, among: cores, holds: [0: 1, 2: 1], current: 2) == 1, "both held: the first free")
        #expect(CoreSpread.core(forSlice: 0, among: [4, 9], holds: [:], current: 7) == 4, "a core it may not keep: its own")
    }

    #if os(Linux)
    @Test func eachSliceRunsOnItsOwnCoreAndItsThreadGetsItsAffinityBack() async throws {
        let allowed = try #require(AffinityMask.of())
        let cores = allowed.cores
        for slice in cores.indices {
            // Nothing here suspends: the slice starts, runs and returns on this thread.
            let held = await CoreSpread.onOwnCore(slice: slice, of: cores.count) { AffinityMask.of()?.cores }
            let after = AffinityMask.of()
            // One core alone, the slice's own unless slices running elsewhere hold it (a process
            // allowed just one core has nothing to hold).
            #expect(cores.count > 1 ? held?.count == 1 && cores.contains(held![0]) : held == cores, "slice \(slice)")
            #expect(after == allowed, "slice \(slice)")
        }
    }

    @Test func aJobWithAnotherNumberOfSlicesThanCoresLeavesThePlacementToTheKernel() async throws {
        let allowed = try #require(AffinityMask.of())
        for slices in [allowed.cores.count + 1, 1] {
            let seen = await CoreSpread.onOwnCore(slice: 0, of: slices) { AffinityMask.of()?.cores }
            #expect(seen == allowed.cores, "\(slices) slices")
        }
    }

    /// Two pieces of synchronous work run at once, each on a core of its own when the process
    /// may run on two, and the caller gets both results.
    @Test func twoPiecesOfWorkRunAtOnceAndBothAnswer() throws {
        let allowed = try #require(AffinityMask.of())
        try #require(allowed.cores.count > 1, "one core: the two run one after the other")
        let bothStarted = DispatchGroup()
        bothStarted.enter()
        bothStarted.enter()
        // Each waits a while for the other to start, so the first meets the second only if
        // they run at once.
        let piece: @Sendable (Int) -> (number: Int, thread: Int, cores: [Int]?, metTheOther: Bool) = { number in
            bothStarted.leave()
            let met = bothStarted.wait(timeout: .now() + 10) == .success
            return (number, AffinityMask.callingThread, AffinityMask.of()?.cores, met)
        }
        let (first, second) = try CoreSpread.concurrently({ piece(0) }, { piece(1) })
        #expect(first.number == 0 && second.number == 1)
        // With every Dispatch worker busy (other suites run meanwhile), the caller may run both
        // itself, one after the other; when they did run at once, it was on two threads.
        if first.metTheOther { #expect(first.thread != second.thread) }
        if allowed.cores.count == 2 {
            // Which core is the choice of `core(forSlice:among:holds:current:)`, given what
            // other tests hold.
            for held in [first.cores, second.cores] {
                #expect(held?.count == 1 && allowed.cores.contains(held![0]), "held to one core")
            }
        } else {
            #expect(first.cores == allowed.cores && second.cores == allowed.cores, "placement left to the kernel")
        }
        #expect(AffinityMask.of() == allowed, "the calling thread gets its affinity back")
    }

    struct Failure: Error, Equatable { let piece: Int }

    /// An error surfaces once both pieces are done; the first's when both fail.
    @Test func anErrorOfEitherPieceSurfacesOnceBothAreDone() {
        let finished = Mutex(0)
        let finishing: @Sendable (Int, Bool) throws -> Int = { piece, fails in
            Thread.sleep(forTimeInterval: piece == 0 ? 0 : 0.05)
            finished.withLock { $0 += 1 }
            if fails { throw Failure(piece: piece) }
            return piece
        }
        #expect(throws: Failure(piece: 1)) { try CoreSpread.concurrently({ try finishing(0, false) }, { try finishing(1, true) }) }
        #expect(finished.withLock { $0 } == 2)
        #expect(throws: Failure(piece: 0)) { try CoreSpread.concurrently({ try finishing(0, true) }, { try finishing(1, true) }) }
        #expect(finished.withLock { $0 } == 4)
        #expect(throws: Failure(piece: 0)) { try CoreSpread.concurrently({ try finishing(0, true) }, { try finishing(1, false) }) }
        #expect(finished.withLock { $0 } == 6)
    }

    /// A slice that suspended may end on another thread than it started on: the thread it held
    /// is given its affinity back by id, from there.
    @Test func aHeldThreadGetsItsAffinityBackFromAnotherThread() async throws {
        let allowed = try #require(AffinityMask.of())
        try #require(allowed.cores.count > 1, "one core: nothing is ever held")
        let held = Mutex<HeldThread?>(nil)
        let seenAfter = Mutex<AffinityMask?>(nil)
        let heldNow = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            held.withLock { $0 = HeldThread(forSlice: 1, of: allowed.cores.count) }
            heldNow.signal()
            released.wait()
            seenAfter.withLock { $0 = AffinityMask.of() }
            done.signal()
        }
        thread.start()
        heldNow.wait()
        let holding = try #require(held.withLock { $0 })
        #expect(AffinityMask.of(thread: holding.thread)?.cores == [holding.core])
        #expect(allowed.cores.contains(holding.core))
        holding.release()
        released.signal()
        done.wait()
        #expect(seenAfter.withLock { $0 } == allowed)
    }
    #endif
}
