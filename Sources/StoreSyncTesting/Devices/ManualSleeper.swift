public import Foundation

/// A sleeper for the client's retry timer that waits until the test says so: the test reads
/// how long the client asked to wait, moves its clock by that much and wakes it. No test
/// waits for real time.
///
/// ```swift
/// let sleeper = ManualSleeper()
/// let device = TestDevice(server: server, sleep: sleeper.sleep)
/// let delay = await sleeper.nextSleep()     // e.g. 2 s after a first failure
/// server.clock.advance(by: delay)
/// await sleeper.wake()
/// ```
public actor ManualSleeper {
    private struct Sleeper {
        let seconds: TimeInterval
        let continuation: CheckedContinuation<Void, any Error>
    }

    private var sleepers: [UUID: Sleeper] = [:]
    private var order: [UUID] = []
    private var cancelledEarly: Set<UUID> = []
    private var reported: Set<UUID> = []
    private var watchers: [CheckedContinuation<Void, Never>] = []

    /// Creates a sleeper nobody waits on.
    public init() {}

    /// What the client calls: waits until ``wake()``, or throws when its task is cancelled.
    ///
    /// - Parameter seconds: How long the client wants to wait.
    /// - Throws: `CancellationError` when the waiting task is cancelled.
    @Sendable public nonisolated func sleep(_ seconds: TimeInterval) async throws {
        let id = UUID()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                Task { await self.register(id, seconds: seconds, continuation) }
            }
        } onCancel: {
            Task { await self.cancel(id) }
        }
    }

    /// Waits until the client sleeps in a way not reported before, and tells for how long.
    ///
    /// - Returns: The seconds of the newest sleep still waiting.
    public func nextSleep() async -> TimeInterval {
        while true {
            if let id = order.last(where: { sleepers[$0] != nil && !reported.contains($0) }), let sleeper = sleepers[id] {
                reported.insert(id)
                return sleeper.seconds
            }
            await withCheckedContinuation { watchers.append($0) }
        }
    }

    /// Ends every sleep still waiting.
    public func wake() {
        let waiting = sleepers
        sleepers = [:]
        order = []
        for sleeper in waiting.values { sleeper.continuation.resume() }
    }

    private func register(_ id: UUID, seconds: TimeInterval, _ continuation: CheckedContinuation<Void, any Error>) {
        if cancelledEarly.remove(id) != nil {
            continuation.resume(throwing: CancellationError())
            return
        }
        sleepers[id] = Sleeper(seconds: seconds, continuation: continuation)
        order.append(id)
        let waiting = watchers
        watchers = []
        for watcher in waiting { watcher.resume() }
    }

    private func cancel(_ id: UUID) {
        guard let sleeper = sleepers.removeValue(forKey: id) else {
            cancelledEarly.insert(id)
            return
        }
        order.removeAll { $0 == id }
        sleeper.continuation.resume(throwing: CancellationError())
    }
}
