/// Polls `condition` until it holds, for what happens in the background (a job, a pass at
/// start) and cannot be awaited directly.
///
/// - Parameters:
///   - limit: How long to keep polling: generous, since the machine may be loaded; it bounds a
///     failing test, it is not a timing assertion.
///   - condition: What must come to hold.
/// - Returns: Whether it held before the limit.
/// - Throws: What `condition` throws.
public func eventually(within limit: Duration = .seconds(60), _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + limit
    while true {
        if try await condition() { return true }
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(50))
    }
}
