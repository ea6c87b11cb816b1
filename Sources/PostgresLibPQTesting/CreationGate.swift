/// Runs CREATE DATABASE calls one at a time: concurrent copies of one template can collide.
actor CreationGate {
    private var busy = false
    private var queue: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` once every earlier call has finished.
    func serialize<R: Sendable>(_ body: @Sendable () async throws -> R) async throws -> R {
        if busy {
            await withCheckedContinuation { queue.append($0) }
        }
        busy = true
        defer {
            if queue.isEmpty { busy = false } else { queue.removeFirst().resume() }
        }
        return try await body()
    }
}
