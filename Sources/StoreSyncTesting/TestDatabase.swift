public import Foundation
public import PostgresLibPQ
import PostgresLibPQTesting

/// StoreSync's databases for tests: fresh ones with the real migrations, in the test process's
/// cluster (``PostgresLibPQTesting/TestCluster``).
///
/// Every database is copied from a template that has the migrations applied once, so making
/// one is cheap and suites never see each other's rows.
public enum TestDatabase {
    /// The repository's `Schema/` directory, the real migrations.
    public static let schemaDirectory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Schema")

    /// Creates a fresh database with StoreSync's migrations applied.
    ///
    /// - Returns: The new database's configuration (superuser, unix socket).
    /// - Throws: ``EmbeddedPostgresError``, ``SchemaMigrationError`` or ``PostgresError``.
    public static func makeDatabase() async throws -> PostgresConfiguration {
        try await TestCluster.makeDatabase(migrationsDirectory: schemaDirectory)
    }
}
