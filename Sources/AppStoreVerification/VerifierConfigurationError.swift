/// Why a ``VerifierConfiguration`` could not be made.
public enum VerifierConfigurationError: Error, Sendable, Hashable {
    /// Production verification needs the app's Apple id to check notifications.
    case missingAppAppleId
    /// The development switch that accepts unverified data is refused in production.
    case unverifiedNotAllowedInProduction
    /// The bundle id is empty.
    case emptyBundleId
    /// No trusted root was given: nothing could ever verify.
    case noTrustedRoots
    /// A trusted-roots PEM file could not be read or held no certificate.
    case unreadableTrustedRoots(path: String, reason: String)
    /// The bundled Apple Root CA - G3 is missing or is not the expected certificate.
    case bundledRootUnavailable(String)
}

extension VerifierConfigurationError: CustomStringConvertible {
    /// One line naming the setting at fault.
    public var description: String {
        switch self {
        case .missingAppAppleId:
            "appAppleId is required when the environment is Production (STORESYNC_APP_APPLE_ID)"
        case .unverifiedNotAllowedInProduction:
            "accepting unverified signed data is refused when the environment is Production (STORESYNC_ALLOW_UNVERIFIED)"
        case .emptyBundleId:
            "the bundle id is empty (STORESYNC_BUNDLE_ID)"
        case .noTrustedRoots:
            "no trusted root certificate is configured (STORESYNC_TRUSTED_ROOTS)"
        case .unreadableTrustedRoots(let path, let reason):
            "cannot load trusted roots from \(path): \(reason) (STORESYNC_TRUSTED_ROOTS)"
        case .bundledRootUnavailable(let reason):
            "the bundled Apple Root CA - G3 is unavailable: \(reason)"
        }
    }
}
