/// Lets one task at a time through, in arrival order, across suspension points (an actor
/// alone would interleave at every `await`).
actor AsyncMutex {
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func withLock<Result: Sendable>(_ body: @Sendable () async throws -> Result) async rethrows -> Result {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty {
            held = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
