public import StoreSyncServer

/// Runs a body against a fresh application tested through its router (its own PostgreSQL
/// database) and stops it afterwards, also when the body throws.
///
/// - Parameters:
///   - clock: The clock the application reads.
///   - configure: Changes to the test configuration (transfer policy, limits, …).
///   - body: The test, given the running application.
/// - Returns: What the body returns.
/// - Throws: What the start or the body throws.
@discardableResult
public func withTestApp<Result: Sendable>(
    clock: TestClock = TestClock(),
    configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: (TestApp) async throws -> Result
) async throws -> Result {
    try await stopping(try await TestApp.start(clock: clock, configure: configure), after: body)
}

/// Runs a body against a second instance of a running application (the same database, its own
/// caches: two instances behind one load balancer) and stops that instance afterwards, also
/// when the body throws.
///
/// - Parameters:
///   - first: The running application.
///   - configure: Changes to the first instance's configuration (other trusted roots, …).
///   - body: The test, given the second instance.
/// - Returns: What the body returns.
/// - Throws: What the start or the body throws.
@discardableResult
public func withSecondInstance<Result: Sendable>(
    of first: TestApp,
    configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: (TestApp) async throws -> Result
) async throws -> Result {
    try await stopping(try await TestApp.secondInstance(of: first, configure: configure), after: body)
}
