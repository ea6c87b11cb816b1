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
