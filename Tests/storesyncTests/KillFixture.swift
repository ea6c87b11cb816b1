import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import StoreSyncAPI
import StoreSyncTesting

/// What `storesync serve` needs to run against the test cluster as an operator would run it:
/// a migrated database, a test PKI root file, a catalog file, an admin key and a signing key.
struct KillFixture {
    let directory: URL
    let signer: AppStoreTestSigner
    let database: PostgresConfiguration
    let environment: [String: String]

    static func make() async throws -> KillFixture {
        let directory = try StoreSyncBinary.temporaryDirectory()
        let appStore = try TestAppStoreFiles.write(into: directory)
        let database = try await TestDatabase.makeDatabase()
        let environment = appStore.settings.merging([
            "DATABASE_URL": TestCluster.url(of: database),
            "STORESYNC_SCHEMA_DIR": TestDatabase.schemaDirectory.path,
            "STORESYNC_ADMIN_API_KEY": "kill-test-admin-\(UUID().uuidString)",
        ]) { _, kill in kill }
        return KillFixture(directory: directory, signer: appStore.signer, database: database, environment: environment)
    }

    /// Starts `storesync serve` on a free port with this fixture's settings.
    ///
    /// - Parameters:
    ///   - log: The log file's name in the fixture's directory.
    ///   - settings: Settings added to the fixture's, or replacing them.
    func startServer(log: String, settings added: [String: String] = [:]) async throws -> ServerProcess {
        var settings = environment.merging(added) { _, added in added }
        settings["LOG_LEVEL"] = settings["LOG_LEVEL"] ?? "notice"
        return try await ServerProcess.start(
            executable: StoreSyncBinary.url, port: try FreePort.find(), settings: settings,
            logFile: directory.appendingPathComponent(log))
    }

    /// Drops the database and the files.
    func remove() async {
        try? await TestCluster.drop(database)
        try? FileManager.default.removeItem(at: directory)
    }
}
