import Foundation
import StoreSyncCore

extension ServerConfiguration {
    /// The bcrypt costs a Production server is expected to run at: below, a stolen database's
    /// hashes fall quickly; above, one hash takes seconds and sign-ins queue behind
    /// `STORESYNC_PASSWORD_CHECKS`.
    static let productionBcryptCosts: ClosedRange<UInt8> = 10...16

    /// Production's rule for the App Store's endpoints: the shared secret (`verifyReceipt`) and
    /// the signed API tokens travel only over https, or over http to this machine (a local
    /// proxy or sidecar that speaks TLS onwards).
    ///
    /// - Throws: ``ConfigurationError`` naming the first endpoint that breaks it.
    func validateProductionEndpoints() throws(ConfigurationError) {
        guard environment == .production else { return }
        let endpoints: [(Setting, URL?)] = [
            (.verifyReceiptURL, verifyReceiptURL), (.verifyReceiptSandboxURL, verifyReceiptSandboxURL),
            (.appStoreAPIURL, appStoreAPIURL),
        ]
        for case let (setting, url?) in endpoints where url.scheme?.lowercased() == "http" && !Self.isLoopback(url.host) {
            throw .invalid(setting, "Production sends secrets to the App Store only over https (http only to a loopback address)")
        }
    }

    /// Choices a server accepts but an operator should see at start, one line each: in
    /// Production, trusted roots other than Apple's (whoever holds them can mint purchases), an
    /// embedded database under the working directory, a bcrypt cost outside
    /// ``productionBcryptCosts``; anywhere, a cost so high one hash takes seconds.
    public var startupWarnings: [String] {
        var warnings: [String] = []
        if environment == .production {
            if let trustedRootsPath {
                warnings.append(
                    "STORESYNC_TRUSTED_ROOTS replaces Apple Root CA - G3 with \(trustedRootsPath): whoever holds those roots can sign purchases this server grants")
            }
            if database.url == nil {
                warnings.append("no DATABASE_URL: purchases are kept in an embedded PostgreSQL under this server's data directory, with no standby or backup")
            }
            if passwordHashCost < Self.productionBcryptCosts.lowerBound {
                warnings.append("STORESYNC_BCRYPT_COST \(passwordHashCost) makes stolen password hashes quick to break; 10 or more is usual")
            }
        }
        if passwordHashCost > Self.productionBcryptCosts.upperBound {
            warnings.append(
                "STORESYNC_BCRYPT_COST \(passwordHashCost): every sign-up and sign-in hashes for seconds, and the ones beyond STORESYNC_PASSWORD_CHECKS get 503")
        }
        return warnings
    }

    private static func isLoopback(_ host: String?) -> Bool {
        guard let host = host?.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]")) else { return false }
        return host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}
