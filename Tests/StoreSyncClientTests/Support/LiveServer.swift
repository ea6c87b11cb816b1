import StoreSyncTesting

/// Runs a body against a fresh live server (its own PostgreSQL database) and stops the server
/// afterwards, also when the body throws.
func withLiveServer(_ body: (TestServer) async throws -> Void) async throws {
    let server = try await TestServer.start()
    do {
        try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}
