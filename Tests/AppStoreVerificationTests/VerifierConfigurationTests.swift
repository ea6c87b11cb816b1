import AppStoreVerification
import Foundation
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct VerifierConfigurationTests {
    @Test func productionRequiresTheAppAppleId() {
        #expect(throws: VerifierConfigurationError.missingAppAppleId) {
            try VerifierConfiguration(bundleId: "com.example", environment: .production)
        }
    }

    @Test func developmentSwitchIsRefusedInProduction() {
        #expect(throws: VerifierConfigurationError.unverifiedNotAllowedInProduction) {
            try VerifierConfiguration(bundleId: "com.example", appAppleId: 1, environment: .production, allowUnverified: true)
        }
    }

    /// A configuration cannot be edited into one its initialiser refuses: the copy for one
    /// environment is checked as a new configuration is.
    @Test func aCopyForProductionIsRefusedTheDevelopmentSwitchToo() throws {
        let sandbox = try VerifierConfiguration(
            bundleId: "com.example", appAppleId: 1, environment: .sandbox, allowUnverified: true)
        #expect(throws: VerifierConfigurationError.unverifiedNotAllowedInProduction) {
            try sandbox.accepting(only: .production)
        }
        let strict = try VerifierConfiguration(
            bundleId: "com.example", appAppleId: 1, environment: .production, acceptsSandbox: true)
        let sandboxOnly = try strict.accepting(only: .sandbox)
        #expect(sandboxOnly.environment == .sandbox && !sandboxOnly.acceptsSandbox && !sandboxOnly.allowUnverified)
    }

    @Test(arguments: [AppStoreEnvironment.sandbox, .xcode, .localTesting])
    func developmentSwitchIsAllowedOutsideProduction(environment: AppStoreEnvironment) throws {
        let configuration = try VerifierConfiguration(
            bundleId: "com.example", environment: environment, allowUnverified: true)
        #expect(configuration.allowUnverified)
        #expect(configuration.appAppleId == nil)
    }

    @Test func emptyBundleIdIsRefused() {
        #expect(throws: VerifierConfigurationError.emptyBundleId) {
            try VerifierConfiguration(bundleId: "", environment: .sandbox)
        }
    }

    @Test func emptyTrustedRootsAreRefused() {
        #expect(throws: VerifierConfigurationError.noTrustedRoots) {
            try VerifierConfiguration(bundleId: "com.example", environment: .sandbox, trustedRoots: [])
        }
    }

    @Test func trustedRootsLoadFromAPEMFileWithSeveralCertificates() throws {
        let first = try TestPKI.make(name: "First")
        let second = try TestPKI.make(name: "Second")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("roots-\(UUID()).pem").path
        try (first.rootPEM + "\n" + second.rootPEM).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let roots = try VerifierConfiguration.loadTrustedRoots(pemFile: path)

        #expect(roots == [first.root, second.root])
    }

    @Test func missingPEMFileIsATypedError() {
        let error = #expect(throws: VerifierConfigurationError.self) {
            try VerifierConfiguration.loadTrustedRoots(pemFile: "/nonexistent/roots.pem")
        }
        #expect(error.map { "\($0)".contains("STORESYNC_TRUSTED_ROOTS") } == true)
    }

    @Test(arguments: [
        "",
        "not pem at all",
        "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
        "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
    ])
    func textWithoutCertificatesIsRefused(pem: String) {
        #expect(throws: VerifierConfigurationError.self) {
            try VerifierConfiguration.parseTrustedRoots(pem: pem)
        }
    }

    @Test func bundledRootIsTheDefault() throws {
        let configuration = try VerifierConfiguration(bundleId: "com.example", environment: .sandbox)
        #expect(configuration.trustedRoots == [try VerifierConfiguration.appleRootCAG3])
    }

    @Test func testSignedDataDoesNotVerifyUnderTheDefaultAppleRoot() async throws {
        let pki = try TestPKI.make()
        let verifier = SignedDataVerifier(
            configuration: try VerifierConfiguration(bundleId: Fixtures.bundleId, environment: .sandbox),
            logger: Fixtures.logger)

        await #expect(throws: VerificationError.invalidChain) {
            try await verifier.verifyTransaction(Fixtures.signer(pki).signTransaction(Fixtures.record(.nonConsumable)))
        }
    }
}
