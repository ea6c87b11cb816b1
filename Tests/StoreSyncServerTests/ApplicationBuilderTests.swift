import Configuration
import Foundation
import Hummingbird
import HummingbirdTesting
import PostgresLibPQTesting
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

/// `buildApplication(reader:metrics:)`, the entry point `storesync serve` runs: settings by
/// their keys, the database they name, the application on it.
@Suite struct ApplicationBuilderTests {
    @Test func theApplicationBuiltFromAReaderServesTheDatabaseItNames() async throws {
        let database = try await TestDatabase.makeDatabase()
        let reader = ConfigReader(provider: InMemoryProvider(values: [
            "storesync.bundleId": "com.example.storesync", "storesync.environment": "Sandbox",
            "database.url": ConfigValue(.string(TestCluster.url(of: database)), isSecret: false),
            "storesync.schemaDir": ConfigValue(.string(TestDatabase.schemaDirectory.path), isSecret: false),
            "log.level": "error",
        ]))
        let app = try await buildApplication(reader: reader, metrics: TestMetrics.registry)
        try await app.test(.router) { client in
            try await client.execute(uri: "/health/ready", method: .get) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(uri: "/v1/entitlements", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
        }
        try await TestCluster.drop(database)
    }

    @Test func aBadSettingStopsTheBuilderBeforeAnyDatabaseStarts() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesync-builder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let reader = ConfigReader(provider: InMemoryProvider(values: [
            "storesync.bundleId": "com.example.storesync", "storesync.environment": "Sandbox", "http.port": "eighty",
            "storesync.dataDir": ConfigValue(.string(directory.path), isSecret: false),
        ]))
        await #expect(throws: ConfigurationError.invalid(.httpPort, "expected a whole number in 0...65535, got 'eighty'")) {
            _ = try await buildApplication(reader: reader, metrics: TestMetrics.registry)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path), "no embedded cluster was created")
    }

    @Test func everySettingsOptionIsItsEnvironmentNameInLowerCaseWithDashes() {
        for setting in Setting.all {
            #expect(setting.commandLineOption == "--" + setting.environmentName.lowercased().replacingOccurrences(of: "_", with: "-"))
        }
    }
}
