import AppStoreVerification
import Crypto
import Foundation
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct ServerAPIConfigurationTests {
    private static let key = TestAppStoreAPIKey()

    private static func configuration(
        pem: String = key.privateKeyPEM, environment: AppStoreEnvironment = .production, baseURL: URL? = nil
    ) throws(AppStoreServerAPIConfigurationError) -> AppStoreServerAPIConfiguration {
        try AppStoreServerAPIConfiguration(
            keyId: key.keyId, issuerId: key.issuerId, privateKeyPEM: pem, bundleId: Fixtures.bundleId,
            environment: environment, baseURL: baseURL)
    }

    @Test func environmentPicksApplesBaseURL() throws {
        #expect(try Self.configuration(environment: .production).baseURL.absoluteString
            == "https://api.storekit.apple.com")
        #expect(try Self.configuration(environment: .sandbox).baseURL.absoluteString
            == "https://api.storekit-sandbox.apple.com")
    }

    @Test func baseURLOverridesTheEnvironment() throws {
        let url = try #require(URL(string: "http://127.0.0.1:9999"))
        #expect(try Self.configuration(environment: .production, baseURL: url).baseURL == url)
        #expect(try Self.configuration(environment: .xcode, baseURL: url).baseURL == url)
    }

    @Test func xcodeAndLocalTestingNeedABaseURL() {
        #expect(throws: AppStoreServerAPIConfigurationError.noAPIForEnvironment(.xcode)) {
            try Self.configuration(environment: .xcode)
        }
        #expect(throws: AppStoreServerAPIConfigurationError.noAPIForEnvironment(.localTesting)) {
            try Self.configuration(environment: .localTesting)
        }
    }

    @Test func theP8KeyIsRead() throws {
        let configuration = try Self.configuration()
        #expect(configuration.privateKey.publicKey.rawRepresentation == Self.key.publicKey.rawRepresentation)
    }

    @Test func emptyIdsAreRefused() {
        let pem = Self.key.privateKeyPEM
        #expect(throws: AppStoreServerAPIConfigurationError.emptyKeyId) {
            try AppStoreServerAPIConfiguration(
                keyId: "", issuerId: "issuer", privateKeyPEM: pem, bundleId: "b", environment: .sandbox)
        }
        #expect(throws: AppStoreServerAPIConfigurationError.emptyIssuerId) {
            try AppStoreServerAPIConfiguration(
                keyId: "kid", issuerId: "", privateKeyPEM: pem, bundleId: "b", environment: .sandbox)
        }
        #expect(throws: AppStoreServerAPIConfigurationError.emptyBundleId) {
            try AppStoreServerAPIConfiguration(
                keyId: "kid", issuerId: "issuer", privateKeyPEM: pem, bundleId: "", environment: .sandbox)
        }
    }

    /// A text given as the `.p8` key, and what the error must say about it.
    struct BadKey: Sendable, CustomTestStringConvertible {
        var pem: String
        var reason: String
        var testDescription: String { reason }
    }

    @Test(arguments: [
        BadKey(pem: "", reason: "empty"),
        BadKey(pem: "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg", reason: "not a PEM file"),
        BadKey(pem: P256.Signing.PrivateKey().publicKey.pemRepresentation, reason: "public key, not the private key"),
        BadKey(pem: P384.Signing.PrivateKey().pemRepresentation, reason: "another curve"),
        BadKey(pem: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----", reason: "not an EC P-256 private key"),
    ])
    func badKeyIsRefusedWithAReason(key: BadKey) throws {
        let (pem, reason) = (key.pem, key.reason)
        let error = #expect(throws: AppStoreServerAPIConfigurationError.self) { try Self.configuration(pem: pem) }
        guard case .invalidPrivateKey(let detail) = error else {
            Issue.record("expected invalidPrivateKey, got \(String(describing: error))")
            return
        }
        #expect(detail.contains(reason))
        #expect(error.map { "\($0)" }?.contains("private key") == true)
    }

    @Test func p8FileIsReadAndAMissingOneNamed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = try Self.key.writeP8File(into: directory)
        #expect(try AppStoreServerAPIConfiguration.readPrivateKey(atPath: file.path) == Self.key.privateKeyPEM)
        let missing = directory.appendingPathComponent("AuthKey_MISSING.p8").path
        #expect(throws: AppStoreServerAPIConfigurationError.unreadablePrivateKeyFile(missing)) {
            try AppStoreServerAPIConfiguration.readPrivateKey(atPath: missing)
        }
    }

    @Test func tokenLifetimeIsCappedAtApplesHour() throws {
        let configuration = try AppStoreServerAPIConfiguration(
            keyId: "kid", issuerId: "issuer", privateKeyPEM: Self.key.privateKeyPEM, bundleId: Fixtures.bundleId,
            environment: .sandbox, tokenLifetime: .seconds(4 * 3600))
        #expect(configuration.tokenLifetime == .seconds(3600))
    }
}
