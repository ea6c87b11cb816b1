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

    /// A new temporary directory holding the migrations numbered below `version` (`"0013"`), as
    /// a release before them shipped: a test applies them, writes rows the old way, then
    /// migrates with ``schemaDirectory``. The caller removes the directory.
    ///
    /// - Parameter version: The first migration left out.
    /// - Returns: The directory.
    /// - Throws: File system errors.
    public static func migrations(before version: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for file in try FileManager.default.contentsOfDirectory(atPath: schemaDirectory.path)
        where file.hasSuffix(".sql") && file < version {
            try FileManager.default.copyItem(
                at: schemaDirectory.appendingPathComponent(file), to: directory.appendingPathComponent(file))
        }
        return directory
    }

    /// Creates a fresh database with StoreSync's migrations applied.
    ///
    /// - Returns: The new database's configuration (superuser, unix socket).
    /// - Throws: ``EmbeddedPostgresError``, ``SchemaMigrationError`` or ``PostgresError``.
    public static func makeDatabase() async throws -> PostgresConfiguration {
        try await TestCluster.makeDatabase(migrationsDirectory: schemaDirectory)
    }
}
