public import PostgresLibPQ
public import StoreSyncServer

/// Runs a body against a fresh live server (its own PostgreSQL database) and stops the server
/// afterwards, also when the body throws.
///
/// - Parameters:
///   - clock: The clock the server and its devices read.
///   - database: A database to serve (the application migrates it), such as one behind a
///     ``PostgresLibPQTesting/TestReplication`` pooler; nil for a fresh one in the shared cluster.
///   - configure: Changes to the test configuration (transfer policy, limits, …).
///   - body: The test, given the running server.
/// - Returns: What the body returns.
/// - Throws: What the server start or the body throws.
@discardableResult
public func withLiveServer<Result: Sendable>(
    clock: TestClock = TestClock(),
    database: PostgresConfiguration? = nil,
    configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
    _ body: (TestServer) async throws -> Result
) async throws -> Result {
    try await stopping(try await TestServer.start(clock: clock, database: database, configure: configure), after: body)
}
