public import PostgresLibPQ
import Foundation

extension TestCluster {
    /// Starts a cluster of the test's own, for tests that stop and restart PostgreSQL: doing
    /// that to the shared cluster would break every suite running beside them.
    ///
    /// It lives in `<temporary directory>/storesync-test-pg-<name>-<pid>`, is removed when the
    /// process exits, and keeps its port and socket across ``EmbeddedPostgres/stop(mode:)`` and
    /// ``EmbeddedPostgres/start()``, so a pool pointed at it reconnects to the same place.
    ///
    /// - Parameters:
    ///   - name: Distinguishes this cluster from other dedicated ones of the same process.
    ///   - options: The cluster's settings; ``EmbeddedPostgres/Options/forTesting`` by default.
    /// - Returns: The running cluster and an empty database in it, named `test`.
    /// - Throws: ``EmbeddedPostgresError`` when the cluster cannot start, ``PostgresError`` when
    ///   the database cannot be created.
    public static func dedicated(
        named name: String, options: EmbeddedPostgres.Options = .forTesting
    ) async throws -> (EmbeddedPostgres, PostgresConfiguration) {
        let cluster = try await EmbeddedPostgres.temporary(prefix: "\(prefix)-\(name)", options: options, logger: logger)
        try await cluster.createDatabase(named: "test")
        var configuration = cluster.configuration
        configuration.database = "test"
        return (cluster, configuration)
    }
}

extension TestCluster {
    /// Runs `body` with a cluster of its own (``dedicated(named:options:)``), then stops and
    /// removes the cluster whether `body` returned or threw: a test that stops and restarts
    /// PostgreSQL leaves nothing running behind it.
    ///
    /// - Parameters:
    ///   - name: Distinguishes this cluster from other dedicated ones of the same process.
    ///   - options: The cluster's settings; ``EmbeddedPostgres/Options/forTesting`` by default.
    ///   - body: The test, given the cluster and an empty database in it; it stops what it
    ///     started on the cluster (servers, pools) before it returns.
    /// - Returns: What `body` returns.
    /// - Throws: What starting the cluster or `body` throws.
    public static func withDedicated<Result>(
        named name: String, options: EmbeddedPostgres.Options = .forTesting,
        _ body: (EmbeddedPostgres, PostgresConfiguration) async throws -> Result
    ) async throws -> Result {
        let (cluster, database) = try await dedicated(named: name, options: options)
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(try await body(cluster, database))
        } catch {
            result = .failure(error)
        }
        try? await cluster.stop()
        try? FileManager.default.removeItem(at: cluster.directory)
        return try result.get()
    }
}
