import AppStorePayloads
import AppStoreVerification
import Configuration
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

/// `STORESYNC_APPSTORE_API_*` and `STORESYNC_RECONCILE_PER_MINUTE`: all three key settings or
/// none, the key file read and checked at start, one clear line naming the setting at fault.
@Suite struct AppStoreAPISettingsTests {
    private static let minimal = ["STORESYNC_BUNDLE_ID": "com.example.storesync", "STORESYNC_ENVIRONMENT": "Sandbox"]

    private static func configuration(_ extra: [String: String]) throws(ConfigurationError) -> ServerConfiguration {
        try ServerConfiguration(
            reader: ConfigReader(providers: [EnvironmentVariablesProvider(environmentVariables: minimal.merging(extra) { $1 })]))
    }

    /// A directory holding a `.p8` file, removed after `body`.
    private static func withKeyFile<R>(_ body: (URL) throws -> R) throws -> R {
        let directory = TestDirectory.make()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try body(try TestAppStoreAPIKey().writeP8File(into: directory))
    }

    @Test func withoutTheSettingsTheAPIIsOff() throws {
        let settings = try Self.configuration([:])
        #expect(settings.appStoreAPIKey == nil)
        #expect(try settings.appStoreAPIConfigurations().isEmpty)
    }

    @Test(arguments: [
        (["STORESYNC_APPSTORE_API_KEY_ID": "KEY"], "STORESYNC_APPSTORE_API_ISSUER_ID"),
        (["STORESYNC_APPSTORE_API_ISSUER_ID": "issuer"], "STORESYNC_APPSTORE_API_KEY_ID"),
        (["STORESYNC_APPSTORE_API_KEY_ID": "KEY", "STORESYNC_APPSTORE_API_ISSUER_ID": "issuer"], "STORESYNC_APPSTORE_API_PRIVATE_KEY"),
        (["STORESYNC_APPSTORE_API_PRIVATE_KEY": "/k.p8"], "STORESYNC_APPSTORE_API_KEY_ID"),
    ])
    func someButNotAllOfTheThreeStopsStartUpNamingAMissingOne(_ given: [String: String], _ missing: String) {
        #expect {
            try Self.configuration(given)
        } throws: { error in
            "\(error)".hasPrefix(missing + " is required with")
        }
    }

    @Test func allThreeWithAnOverrideGiveOneCheckedClient() throws {
        try Self.withKeyFile { keyFile in
            let settings = try Self.configuration([
                "STORESYNC_APPSTORE_API_KEY_ID": "STORESYNC1", "STORESYNC_APPSTORE_API_ISSUER_ID": "issuer",
                "STORESYNC_APPSTORE_API_PRIVATE_KEY": keyFile.path, "STORESYNC_APPSTORE_API_URL": "http://127.0.0.1:9/apple",
            ])
            let configurations = try settings.appStoreAPIConfigurations()
            #expect(configurations.map(\.environment) == [.sandbox])
            #expect(configurations.first?.baseURL.absoluteString == "http://127.0.0.1:9/apple")
            #expect(configurations.first?.keyId == "STORESYNC1")
            #expect(configurations.first?.bundleId == "com.example.storesync")
        }
    }

    @Test func aProductionServerAsksProductionThenSandboxAtApplesURLs() throws {
        try Self.withKeyFile { keyFile in
            var settings = ServerConfiguration(bundleId: "com.example.storesync", environment: .production)
            settings.appStoreAPIKey = AppStoreAPIKeySettings(keyId: "STORESYNC1", issuerId: "issuer", privateKeyPath: keyFile.path)
            let configurations = try settings.appStoreAPIConfigurations()
            #expect(configurations.map(\.environment) == [.production, .sandbox])
            #expect(configurations.map(\.baseURL) == [AppStoreServerAPIConfiguration.productionURL, AppStoreServerAPIConfiguration.sandboxURL])
        }
    }

    @Test func aProductionServerRefusingSandboxAsksProductionOnly() throws {
        try Self.withKeyFile { keyFile in
            var settings = ServerConfiguration(bundleId: "com.example.storesync", environment: .production)
            settings.sandboxInProduction = .refuse
            settings.appStoreAPIKey = AppStoreAPIKeySettings(keyId: "STORESYNC1", issuerId: "issuer", privateKeyPath: keyFile.path)
            let configurations = try settings.appStoreAPIConfigurations()
            #expect(configurations.map(\.environment) == [.production])
        }
    }

    @Test func aKeyFileThatCannotBeReadOrIsNoKeyStopsStartUpNamingTheSetting() throws {
        let directory = TestDirectory.make()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let notAKey = directory.appendingPathComponent("AuthKey_X.p8")
        try Data("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".utf8).write(to: notAKey)
        for path in [directory.appendingPathComponent("missing.p8").path, notAKey.path, directory.path] {
            var settings = ServerConfiguration(bundleId: "com.example.storesync", environment: .sandbox)
            settings.appStoreAPIKey = AppStoreAPIKeySettings(keyId: "STORESYNC1", issuerId: "issuer", privateKeyPath: path)
            #expect(throws: ConfigurationError.self) { try settings.checkReferencedFiles() }
            do {
                try settings.checkReferencedFiles()
            } catch {
                #expect("\(error)".hasPrefix("STORESYNC_APPSTORE_API_PRIVATE_KEY is invalid"), "\(error)")
                #expect(!"\(error)".contains("MIIB"), "the message never echoes key material")
            }
        }
    }

    /// The key pasted where its file's path goes (PEM, or its base64 body alone): refused
    /// without the error printing it.
    @Test(arguments: [
        "-----BEGIN PRIVATE KEY-----\nMIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQg\n-----END PRIVATE KEY-----",
        "MIGTAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBHkwdwIBAQQgSecretSecretSecretSecretSecret",
    ])
    func aKeyPastedInPlaceOfItsPathIsRefusedWithoutPrintingIt(pasted: String) throws {
        var settings = ServerConfiguration(bundleId: "com.example.storesync", environment: .sandbox)
        settings.appStoreAPIKey = AppStoreAPIKeySettings(keyId: "STORESYNC1", issuerId: "issuer", privateKeyPath: pasted)
        do {
            try settings.checkReferencedFiles()
            Issue.record("a key in place of a path was taken")
        } catch {
            #expect("\(error)".hasPrefix("STORESYNC_APPSTORE_API_PRIVATE_KEY is invalid"), "\(error)")
            #expect("\(error)".contains("not a path"), "\(error)")
            #expect(!"\(error)".contains("MIGTAgEA"), "the message never echoes key material")
        }
    }

    @Test func anXcodeServerWithoutAnOverrideIsToldToSetTheURL() throws {
        try Self.withKeyFile { keyFile in
            var settings = ServerConfiguration(bundleId: "com.example.storesync", environment: .xcode)
            settings.appStoreAPIKey = AppStoreAPIKeySettings(keyId: "STORESYNC1", issuerId: "issuer", privateKeyPath: keyFile.path)
            #expect {
                try settings.appStoreAPIConfigurations()
            } throws: { error in
                "\(error)".hasPrefix("STORESYNC_APPSTORE_API_URL is required")
            }
        }
    }

    @Test(arguments: ["-1", "6001", "often"])
    func aReconcileRateOutOfRangeStopsStartUp(_ value: String) {
        #expect {
            try Self.configuration(["STORESYNC_RECONCILE_PER_MINUTE": value])
        } throws: { error in
            "\(error)".hasPrefix("STORESYNC_RECONCILE_PER_MINUTE is invalid")
        }
    }

    @Test func theRateDefaultsToThirtyAndZeroTurnsTheJobOff() throws {
        #expect(try Self.configuration([:]).reconcilePerMinute == 30)
        #expect(try Self.configuration(["STORESYNC_RECONCILE_PER_MINUTE": "0"]).reconcilePerMinute == 0)
    }
}
