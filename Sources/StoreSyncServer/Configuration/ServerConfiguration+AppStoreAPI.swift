import AppStoreVerification
import StoreSyncCore

extension ServerConfiguration {
    /// Refreshes per minute the background reconciliation may be set to.
    static let reconcileRates = 0...6_000

    /// The environments whose App Store Server API the server asks, in the order it asks them
    /// when a purchase's environment is unknown: a Production server also takes Sandbox data
    /// (App Review and TestFlight buy in the sandbox against the production app) unless
    /// `STORESYNC_SANDBOX_IN_PRODUCTION=refuse`.
    var appStoreEnvironments: [AppStoreEnvironment] {
        environment == .production && sandboxInProduction == .grant ? [.production, .sandbox] : [environment]
    }

    /// One App Store Server API configuration per environment the server takes, with the key
    /// file read and checked; empty without the API settings.
    ///
    /// - Returns: The configurations, in ``appStoreEnvironments`` order.
    /// - Throws: ``ConfigurationError`` naming `STORESYNC_APPSTORE_API_PRIVATE_KEY` for a key
    ///   file that cannot be read or holds no usable key, and `STORESYNC_APPSTORE_API_URL` for
    ///   an environment Apple has no API for.
    func appStoreAPIConfigurations() throws(ConfigurationError) -> [AppStoreServerAPIConfiguration] {
        guard let key = appStoreAPIKey else { return [] }
        let pem: String
        do {
            pem = try AppStoreServerAPIConfiguration.readPrivateKey(atPath: key.privateKeyPath)
        } catch {
            throw .invalid(.appStoreAPIPrivateKey, "\(Self.shown(keyPath: key.privateKeyPath)) cannot be read, or is not a .p8 key file")
        }
        var configurations: [AppStoreServerAPIConfiguration] = []
        for environment in appStoreEnvironments {
            do {
                configurations.append(
                    try AppStoreServerAPIConfiguration(
                        keyId: key.keyId, issuerId: key.issuerId, privateKeyPEM: pem, bundleId: bundleId,
                        environment: environment, baseURL: appStoreAPIURL))
            } catch .noAPIForEnvironment(let environment) {
                throw ConfigurationError(
                    setting: .appStoreAPIURL,
                    problem: "is required: Apple has no App Store Server API for the \(environment.appleName) environment")
            } catch .emptyKeyId {
                throw .invalid(.appStoreAPIKeyId, "it is empty")
            } catch .emptyIssuerId {
                throw .invalid(.appStoreAPIIssuerId, "it is empty")
            } catch {
                throw .invalid(.appStoreAPIPrivateKey, "\(Self.shown(keyPath: key.privateKeyPath)): \(error)")
            }
        }
        return configurations
    }

    /// The key setting as an error shows it: the path, or — when the key itself was pasted in
    /// its place — words saying so, so a start-up error never prints the private key.
    static func shown(keyPath: String) -> String {
        let base64Body = keyPath.count > 64 && keyPath.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+/=".contains($0)) }
        let looksLikeKey = keyPath.contains("-----") || keyPath.contains(where: \.isNewline) || keyPath.utf8.count > 1_024
            || base64Body
        return looksLikeKey ? "the value (key material, not a path: put the .p8 in a file and name the file)" : keyPath
    }
}
