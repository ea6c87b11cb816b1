import Foundation
import StoreSyncCore
@testable import StoreSyncServer
import Testing

/// What a Production server refuses or tells its operator at start beyond what every server
/// checks: secrets to the App Store only over https, and choices it accepts but should not
/// keep quiet about.
@Suite struct ProductionChoicesTests {
    private func production() -> ServerConfiguration {
        var configuration = ServerConfiguration(bundleId: "com.example", environment: .production)
        configuration.appAppleId = 12
        configuration.signingKey = Data(repeating: 1, count: 32)
        configuration.database.url = "postgresql://storesync@db/storesync"
        return configuration
    }

    @Test func theDefaultsOfAProductionServerAreQuiet() throws {
        try production().validate()
        #expect(production().startupWarnings.isEmpty)
    }

    @Test(arguments: [false, true])
    func aSecretIsNeverSentToTheAppStoreInClearText(sandboxEndpoint: Bool) throws {
        let endpoint: WritableKeyPath<ServerConfiguration, URL> = sandboxEndpoint ? \.verifyReceiptSandboxURL : \.verifyReceiptURL
        let setting: Setting = sandboxEndpoint ? .verifyReceiptSandboxURL : .verifyReceiptURL
        var configuration = production()
        configuration[keyPath: endpoint] = URL(string: "http://buy.itunes.apple.com/verifyReceipt")!
        #expect(throws: ConfigurationError.self) { try configuration.validate() }
        do { try configuration.validate() } catch { #expect(error.setting == setting) }

        // A local proxy that speaks TLS onwards, and any endpoint outside Production, stay allowed.
        for host in ["127.0.0.1:8443", "localhost", "[::1]:9000"] {
            configuration[keyPath: endpoint] = URL(string: "http://\(host)/verifyReceipt")!
            try configuration.validate()
        }
        configuration[keyPath: endpoint] = URL(string: "http://buy.itunes.apple.com/verifyReceipt")!
        configuration.environment = .sandbox
        try configuration.validate()
    }

    @Test func theServerAPIIsReachedOverHTTPSInProduction() {
        var configuration = production()
        configuration.appStoreAPIURL = URL(string: "http://api.storekit.itunes.apple.com")!
        do {
            try configuration.validate()
            Issue.record("an http App Store Server API URL was accepted in Production")
        } catch {
            #expect(error.setting == .appStoreAPIURL)
        }
    }

    @Test func weakerChoicesAreToldAtStartOneLineEach() {
        var configuration = production()
        configuration.trustedRootsPath = "/etc/storesync/test-root.pem"
        configuration.database.url = nil
        configuration.passwordHashCost = 4
        let warnings = configuration.startupWarnings
        #expect(warnings.count == 3, "\(warnings)")
        #expect(warnings.contains { $0.contains("STORESYNC_TRUSTED_ROOTS") && $0.contains("/etc/storesync/test-root.pem") })
        #expect(warnings.contains { $0.contains("DATABASE_URL") })
        #expect(warnings.contains { $0.contains("STORESYNC_BCRYPT_COST 4") })

        // Outside Production only a cost that stalls sign-ins is worth a line.
        configuration.environment = .sandbox
        #expect(configuration.startupWarnings.isEmpty)
        configuration.passwordHashCost = 20
        #expect(configuration.startupWarnings == [
            "STORESYNC_BCRYPT_COST 20: every sign-up and sign-in hashes for seconds, and the ones beyond STORESYNC_PASSWORD_CHECKS get 503"
        ])
    }
}
