import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting
import Testing

/// PostgreSQL stopped and started again under load, in each of its shutdown modes
/// (``OutageDrill``). The outage hits a cluster of the test's own, never the shared one other
/// suites use.
@Suite(.serialized) struct DatabaseOutageTests {
    @Test(arguments: EmbeddedPostgres.ShutdownMode.allCases)
    func requestsAnswer503WhilePostgresIsDownAndTheServerRecoversWithNothingLost(mode: EmbeddedPostgres.ShutdownMode) async throws {
        var options = EmbeddedPostgres.Options.forTesting
        // A commit is answered only once its WAL reached the kernel, so even an immediate
        // shutdown (a crash) keeps it; the test clusters' default would not promise that.
        options.settings["synchronous_commit"] = "on"
        let (cluster, database) = try await TestCluster.dedicated(named: "outage-\(mode)", options: options)
        let server = try await TestServer.start(database: database)
        do {
            try await OutageDrill(server: server, name: "DatabaseOutageTests (\(mode))").run(
                interrupt: { try await cluster.stop(mode: mode) }, restore: { try await cluster.start() })
        } catch {
            await server.stop()
            try? await cluster.stop()
            throw error
        }
        await server.stop()
        try await cluster.stop()
        try? FileManager.default.removeItem(at: cluster.directory)
    }
}
