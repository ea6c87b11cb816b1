import Testing

@testable import StoreSyncServer

/// A slice's move to its own core leaves its thread's affinity as it found it, and the mask
/// reads the cores the kernel's bits name.
@Suite struct CoreSpreadTests {
    @Test func aMaskNamesTheCoresOfItsSetBitsInOrder() {
        var bits = [UInt](repeating: 0, count: AffinityMask.words)
        bits[0] = 0b1011
        bits[2] = 1 << 3 | 1 << 63
        #expect(AffinityMask(bits: bits).cores == [0, 1, 3, 131, 191])
        #expect(AffinityMask(bits: [UInt](repeating: 0, count: AffinityMask.words)).cores.isEmpty)
    }

    #if os(Linux)
    /// Runs on one thread from start to end: nothing here suspends.
    private func affinityAround(_ move: () -> Void) -> (before: AffinityMask?, after: AffinityMask?) {
        let before = AffinityMask.ofCallingThread()
        move()
        return (before, AffinityMask.ofCallingThread())
    }

    @Test func everySliceLeavesItsThreadWithTheAffinityItHad() throws {
        let cores = try #require(AffinityMask.ofCallingThread()).cores
        #expect(!cores.isEmpty)
        // One slice per core (the slices move), one too many and one alone (nothing moves).
        for slices in [cores.count, cores.count + 1, 1] {
            for slice in 0..<slices {
                let (before, after) = affinityAround { CoreSpread.moveToOwnCore(slice: slice, of: slices) }
                #expect(before != nil && after == before, "slice \(slice) of \(slices)")
            }
        }
    }

    @Test func aThreadHeldToOneCoreIsAllowedThatCoreAloneUntilItsMaskIsBack() throws {
        let allowed = try #require(AffinityMask.ofCallingThread())
        let last = try #require(allowed.cores.last)
        #expect(allowed.applyToCallingThread(only: last))
        let held = AffinityMask.ofCallingThread()?.cores
        #expect(allowed.applyToCallingThread())
        #expect(held == [last])
        #expect(AffinityMask.ofCallingThread() == allowed)
    }
    #endif
}
