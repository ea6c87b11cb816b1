import Foundation
import PostgresLibPQ
import Testing

@Suite struct DedicatedThreadTests {
    struct Refused: Error, Equatable {}

    /// More blocked pieces of work than any pool of ours has threads all run at the same
    /// time: a `pg_ctl` waiting for its cluster never queues work behind it.
    @Test func blockedWorkNeverWaitsForOtherBlockedWork() async throws {
        let pieces = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
        let gathering = Gathering(expected: pieces)
        let allMet = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<pieces {
                group.addTask { try await DedicatedThread.run(named: "test") { gathering.arriveAndWait() } }
            }
            return try await group.reduce(true) { $0 && $1 }
        }
        #expect(allMet, "each piece of work waited for all \(pieces) to be running at once")
    }

    @Test func answersWhatTheWorkReturnedOrThrew() async throws {
        #expect(try await DedicatedThread.run(named: "test") { 6 * 7 } == 42)
        await #expect(throws: Refused()) { try await DedicatedThread.run(named: "test") { () throws -> Int in throw Refused() } }
    }
}

/// A barrier: every arrival blocks its thread until `expected` threads arrived.
private final class Gathering: @unchecked Sendable {
    private let condition = NSCondition()
    private let expected: Int
    private var arrived = 0

    init(expected: Int) { self.expected = expected }

    /// - Returns: Whether everyone arrived; false after 30 s (a liveness bound, not a timing assertion).
    func arriveAndWait() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: 30)
        while arrived < expected {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }
}
