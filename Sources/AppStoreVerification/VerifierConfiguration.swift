public import StoreSyncCore
public import X509

/// What a ``SignedDataVerifier`` accepts: whose app, which environment, which roots.
public struct VerifierConfiguration: Sendable {
    /// The app's bundle id; signed data for any other bundle is rejected.
    public private(set) var bundleId: String
    /// The app's Apple id, checked on production notifications as Apple does.
    public private(set) var appAppleId: Int64?
    /// The environment whose signed data is accepted (see ``acceptsSandbox``).
    public private(set) var environment: AppStoreEnvironment
    /// Whether a Production verifier also accepts Sandbox-signed data, checked exactly as
    /// strictly: App Review and TestFlight buy in the sandbox against the production app.
    /// Xcode and LocalTesting data are never accepted by a Production verifier.
    public private(set) var acceptsSandbox: Bool
    /// The roots a chain must lead to; by default the bundled Apple Root CA - G3.
    public private(set) var trustedRoots: [Certificate]
    /// The development switch: accept data whose signature or chain does not verify,
    /// marked ``StoreSyncCore/Evidence/unverifiedJWS``. Never allowed in production.
    public private(set) var allowUnverified: Bool

    /// Creates a configuration and checks that it is coherent.
    ///
    /// - Parameters:
    ///   - bundleId: The app's bundle id.
    ///   - appAppleId: The app's Apple id; required in production.
    ///   - environment: The environment to accept.
    ///   - trustedRoots: The trusted roots; `nil` means the bundled Apple Root CA - G3.
    ///   - allowUnverified: The development switch; refused in production.
    ///   - acceptsSandbox: Whether a Production verifier also accepts Sandbox data; ignored
    ///     for the other environments.
    /// - Throws: ``VerifierConfigurationError`` naming the setting at fault.
    public init(
        bundleId: String,
        appAppleId: Int64? = nil,
        environment: AppStoreEnvironment,
        trustedRoots: [Certificate]? = nil,
        allowUnverified: Bool = false,
        acceptsSandbox: Bool = false
    ) throws(VerifierConfigurationError) {
        guard !bundleId.isEmpty else { throw .emptyBundleId }
        if environment == .production {
            guard appAppleId != nil else { throw .missingAppAppleId }
            guard !allowUnverified else { throw .unverifiedNotAllowedInProduction }
        }
        let roots: [Certificate]
        if let trustedRoots { roots = trustedRoots } else { roots = [try Self.bundledAppleRoot.get()] }
        guard !roots.isEmpty else { throw .noTrustedRoots }
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environment = environment
        self.trustedRoots = roots
        self.allowUnverified = allowUnverified
        self.acceptsSandbox = acceptsSandbox && environment == .production
    }

    /// The same app, roots and development switch, accepting `environment` alone (how the App
    /// Store Server API's answers for one environment are checked). Checked again as a new
    /// configuration is, so no copy can be, say, a Production one that accepts unverified data.
    ///
    /// - Parameter environment: The one environment to accept.
    /// - Returns: The configuration.
    /// - Throws: ``VerifierConfigurationError`` when that environment's rules refuse it.
    public func accepting(only environment: AppStoreEnvironment) throws(VerifierConfigurationError) -> VerifierConfiguration {
        try VerifierConfiguration(
            bundleId: bundleId, appAppleId: appAppleId, environment: environment, trustedRoots: trustedRoots,
            allowUnverified: allowUnverified)
    }

    /// Whether signed data of `environment` is accepted: the configured one, and Sandbox on a
    /// Production verifier that ``acceptsSandbox``.
    ///
    /// - Parameter environment: The environment the data was signed for.
    /// - Returns: `true` when it is accepted.
    public func accepts(_ environment: AppStoreEnvironment) -> Bool {
        environment == self.environment || (acceptsSandbox && environment == .sandbox)
    }
}
