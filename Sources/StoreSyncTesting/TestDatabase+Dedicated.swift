import Logging
public import PostgresLibPQ

extension TestDatabase {
    /// Starts a cluster of the test's own, for tests that stop and restart PostgreSQL: doing
    /// that to the shared cluster would break every suite running beside them.
    ///
    /// It lives in `<temporary directory>/storesync-test-pg-<name>-<pid>`, is removed when the
    /// process exits, and keeps its port and socket across ``EmbeddedPostgres/stop()`` and
    /// ``EmbeddedPostgres/start()``, so a pool pointed at it reconnects to the same place.
    ///
    /// - Parameters:
    ///   - name: Distinguishes this cluster from other dedicated ones of the same process.
    ///   - options: The cluster's settings; ``EmbeddedPostgres/Options/forTesting`` by default.
    /// - Returns: The running cluster and a database in it, created empty (a server migrates it at start).
    /// - Throws: ``EmbeddedPostgresError`` when the cluster cannot start, ``PostgresError`` when
    ///   the database cannot be created.
    public static func dedicatedCluster(
        named name: String, options: EmbeddedPostgres.Options = .forTesting
    ) async throws -> (EmbeddedPostgres, PostgresConfiguration) {
        let cluster = try await EmbeddedPostgres.temporary(
            prefix: "storesync-test-pg-\(name)", options: options, logger: Logger(label: "storesync.test-database"))
        try await cluster.createDatabase(named: "storesync")
        var configuration = cluster.configuration
        configuration.database = "storesync"
        return (cluster, configuration)
    }
}
