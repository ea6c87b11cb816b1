public import StoreSyncCore
public import X509

/// What a ``SignedDataVerifier`` accepts: whose app, which environment, which roots.
public struct VerifierConfiguration: Sendable {
    /// The app's bundle id; signed data for any other bundle is rejected.
    public var bundleId: String
    /// The app's Apple id, checked on production notifications as Apple does.
    public var appAppleId: Int64?
    /// The only environment whose signed data is accepted.
    public var environment: AppStoreEnvironment
    /// The roots a chain must lead to; by default the bundled Apple Root CA - G3.
    public var trustedRoots: [Certificate]
    /// The development switch: accept data whose signature or chain does not verify,
    /// marked ``StoreSyncCore/Evidence/unverifiedJWS``. Never allowed in production.
    public var allowUnverified: Bool

    /// Creates a configuration and checks that it is coherent.
    ///
    /// - Parameters:
    ///   - bundleId: The app's bundle id.
    ///   - appAppleId: The app's Apple id; required in production.
    ///   - environment: The environment to accept.
    ///   - trustedRoots: The trusted roots; `nil` means the bundled Apple Root CA - G3.
    ///   - allowUnverified: The development switch; refused in production.
    /// - Throws: ``VerifierConfigurationError`` naming the setting at fault.
    public init(
        bundleId: String,
        appAppleId: Int64? = nil,
        environment: AppStoreEnvironment,
        trustedRoots: [Certificate]? = nil,
        allowUnverified: Bool = false
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
    }
}
