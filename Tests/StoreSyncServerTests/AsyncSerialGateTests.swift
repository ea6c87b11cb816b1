import NIOConcurrencyHelpers
import Testing

@testable import StoreSyncServer

@Suite struct AsyncSerialGateTests {
    /// Who is inside the gate, and the most that ever were at once.
    final class Occupancy: Sendable {
        private let counts = NIOLockedValueBox((inside: 0, most: 0, finished: 0))

        func enter() { counts.withLockedValue { $0.inside += 1; $0.most = max($0.most, $0.inside) } }
        func leave() { counts.withLockedValue { $0.inside -= 1; $0.finished += 1 } }
        var most: Int { counts.withLockedValue { $0.most } }
        var finished: Int { counts.withLockedValue { $0.finished } }
    }

    @Test func callersThatAwaitInsideTakeTurns() async {
        let gate = AsyncSerialGate()
        let occupancy = Occupancy()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    await gate.run {
                        occupancy.enter()
                        // Suspends while inside, so an overlapping caller would be seen.
                        await Task.yield()
                        try? await Task.sleep(for: .milliseconds(1))
                        occupancy.leave()
                    }
                }
            }
        }
        #expect(occupancy.finished == 50)
        #expect(occupancy.most == 1)
    }

    @Test func aThrowingCallerLetsTheNextOneIn() async throws {
        struct Failure: Error {}
        let gate = AsyncSerialGate()
        await #expect(throws: Failure.self) { try await gate.run { throw Failure() } }
        let value = await gate.run { 42 }
        #expect(value == 42)
    }
}
