import Configuration
import Foundation
import StoreSyncCore
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

/// The operations settings (DESIGN §7): the webhook needs a secret and an http(s) URL,
/// `/metrics` a port of its own, `LOG_FORMAT` text or json; secrets can come from files.
@Suite struct OperationsConfigurationTests {
    private func configuration(_ values: [String: String]) throws(ConfigurationError) -> ServerConfiguration {
        var all: [AbsoluteConfigKey: ConfigValue] = [
            "storesync.bundleId": "com.example.storesync", "storesync.environment": "Sandbox",
        ]
        for (key, value) in values { all[AbsoluteConfigKey(ConfigKey(key))] = ConfigValue(.string(value), isSecret: false) }
        return try ServerConfiguration(reader: ConfigReader(provider: InMemoryProvider(values: all)))
    }

    @Test func aWebhookURLNeedsASecret() {
        #expect(throws: ConfigurationError.missing(.webhookSecret)) {
            _ = try configuration(["storesync.webhookUrl": "https://hooks.example.com/storesync"])
        }
    }

    @Test(arguments: [
        "ftp://hooks.example.com/", "hooks.example.com/storesync", "https://", "mailto:ops@example.com",
        "https://user:password@hooks.example.com/",
    ])
    func aWebhookURLThatIsNotAnHTTPEndpointIsRefused(url: String) {
        #expect(throws: ConfigurationError.self) {
            _ = try configuration(["storesync.webhookUrl": url, "storesync.webhookSecret": testWebhookSecret])
        }
        do {
            _ = try configuration(["storesync.webhookUrl": url, "storesync.webhookSecret": testWebhookSecret])
        } catch {
            #expect(error.setting == .webhookURL)
            #expect(!"\(error)".contains("hooks.example.com"), "a receiver's URL may carry its token: never echoed")
        }
    }

    /// Caught before the database starts and migrations run, not when the listener binds.
    @Test(arguments: ["localhost:8080", "http://0.0.0.0", "0.0.0.0/0", "my host", "", "-bad.example", "a..b"])
    func aListeningAddressThatIsNoAddressIsRefusedByName(host: String) {
        var configuration = ServerConfiguration(bundleId: "com.example", environment: .sandbox)
        configuration.httpHost = host
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        configuration.httpHost = "127.0.0.1"
        configuration.metricsHost = host
        do {
            try configuration.validate()
            Issue.record("METRICS_HOST '\(host)' was taken")
        } catch {
            #expect(error.setting == .metricsHost)
        }
    }

    @Test(arguments: ["127.0.0.1", "0.0.0.0", "::", "[::]", "::1", "localhost", "storesync-1.internal", "fe80::1"])
    func listeningAddressesAndHostNamesAreTaken(host: String) throws {
        var configuration = ServerConfiguration(bundleId: "com.example", environment: .sandbox)
        configuration.httpHost = host
        configuration.metricsHost = host
        try configuration.validate()
    }

    @Test func aShortSecretIsRefusedAndAGoodWebhookIsRead() throws {
        #expect(throws: ConfigurationError.invalid(.webhookSecret, "use at least 16 characters")) {
            _ = try configuration(["storesync.webhookUrl": "https://hooks.example.com/", "storesync.webhookSecret": "short"])
        }
        let read = try configuration([
            "storesync.webhookUrl": "https://hooks.example.com/storesync", "storesync.webhookSecret": testWebhookSecret,
        ])
        #expect(read.webhookURL?.absoluteString == "https://hooks.example.com/storesync")
        #expect(read.webhookSecret == testWebhookSecret)
        #expect(try configuration([:]).webhookURL == nil)
    }

    @Test func metricsNeedAPortOfTheirOwn() throws {
        #expect(throws: ConfigurationError.self) { _ = try configuration(["metrics.host": "0.0.0.0"]) }
        #expect(throws: ConfigurationError.self) { _ = try configuration(["metrics.port": "8080"]) }
        #expect(throws: ConfigurationError.self) { _ = try configuration(["metrics.port": "nine"]) }
        let read = try configuration(["metrics.host": "0.0.0.0", "metrics.port": "9090"])
        #expect(read.metricsHost == "0.0.0.0")
        #expect(read.metricsPort == 9090)
    }

    @Test func theLogFormatIsTextOrJSON() throws {
        #expect(try configuration([:]).logFormat == .text)
        #expect(try configuration(["log.format": "JSON"]).logFormat == .json)
        #expect(throws: ConfigurationError.invalid(.logFormat, "expected text or json, got 'xml'")) {
            _ = try configuration(["log.format": "xml"])
        }
    }

    @Test func theThreadSchedulingIsBatchUnlessToldNormal() throws {
        #expect(try configuration([:]).threadScheduling == .batch)
        #expect(try configuration(["storesync.threadScheduling": "Normal"]).threadScheduling == .normal)
        #expect(throws: ConfigurationError.invalid(.threadScheduling, "expected batch or normal, got 'idle'")) {
            _ = try configuration(["storesync.threadScheduling": "idle"])
        }
    }

    /// A value carried over from a file keeps its line break (`kubectl create secret
    /// --from-file`); read with it, no admin request could match the key and every webhook
    /// signature would be off.
    @Test func valuesAreReadWithoutTheirSurroundingLineBreaks() throws {
        let signingKey = Data(repeating: 7, count: 32)
        let read = try configuration([
            "storesync.adminApiKey": "an-admin-key-from-the-environment\n",
            "storesync.webhookUrl": "https://hooks.example.com/storesync\r\n",
            "storesync.webhookSecret": "\n0123456789abcdef\n",
            "storesync.bundleId": "com.example.app\n",
            "storesync.signingKey": signingKey.base64EncodedString() + "\n",
        ])
        #expect(read.adminAPIKey == "an-admin-key-from-the-environment")
        #expect(read.webhookSecret == "0123456789abcdef")
        #expect(read.webhookURL?.absoluteString == "https://hooks.example.com/storesync")
        #expect(read.bundleId == "com.example.app")
        #expect(read.signingKey == signingKey)
    }

    @Test func keysAreReadFromFilesUnlessTheirVariableIsSet() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storesync-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let adminFile = directory.appendingPathComponent("admin-api-key")
        let signingFile = directory.appendingPathComponent("signing-key")
        let signingKey = Data(repeating: 7, count: 32)
        try Data("an-admin-key-from-a-file\n".utf8).write(to: adminFile)
        try Data((signingKey.base64EncodedString() + "\n").utf8).write(to: signingFile)
        let files = ["storesync.adminApiKeyFile": adminFile.path, "storesync.signingKeyFile": signingFile.path]

        let fromFiles = try configuration(files)
        #expect(fromFiles.adminAPIKey == "an-admin-key-from-a-file")
        #expect(fromFiles.signingKey == signingKey)
        let overridden = try configuration(files.merging(["storesync.adminApiKey": "an-admin-key-from-the-environment"]) { $1 })
        #expect(overridden.adminAPIKey == "an-admin-key-from-the-environment")

        let empty = directory.appendingPathComponent("empty")
        try Data().write(to: empty)
        #expect(throws: ConfigurationError.invalid(.adminAPIKeyFile, "\(empty.path) is empty")) {
            _ = try configuration(["storesync.adminApiKeyFile": empty.path])
        }
        let missing = directory.appendingPathComponent("missing").path
        #expect(throws: ConfigurationError.invalid(.signingKeyFile, "cannot read \(missing)")) {
            _ = try configuration(["storesync.signingKeyFile": missing])
        }
    }

    @Test func aProbeAsksAServerOnAllAddressesOnLoopback() throws {
        func probe(_ values: [String: String]) throws -> String {
            var all: [AbsoluteConfigKey: ConfigValue] = [:]
            for (key, value) in values { all[AbsoluteConfigKey(ConfigKey(key))] = ConfigValue(.string(value), isSecret: false) }
            return try ServerConfiguration.probeURL(reader: ConfigReader(provider: InMemoryProvider(values: all))).absoluteString
        }
        #expect(try probe([:]) == "http://127.0.0.1:8080")
        #expect(try probe(["http.host": "0.0.0.0", "http.port": "9000"]) == "http://127.0.0.1:9000")
        #expect(try probe(["http.host": "::"]) == "http://[::1]:8080")
        #expect(try probe(["http.host": "::1"]) == "http://[::1]:8080")
        #expect(throws: ConfigurationError.self) { _ = try probe(["http.port": "0"]) }
    }
}
