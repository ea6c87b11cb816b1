public import PostgresLibPQ

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
