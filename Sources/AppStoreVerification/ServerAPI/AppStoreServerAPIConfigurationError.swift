public import StoreSyncCore

/// Why an ``AppStoreServerAPIConfiguration`` cannot be made.
public enum AppStoreServerAPIConfigurationError: Error, Sendable, Hashable {
    /// The key id is empty.
    case emptyKeyId
    /// The issuer id is empty.
    case emptyIssuerId
    /// The bundle id is empty.
    case emptyBundleId
    /// The `.p8` file at this path cannot be read, or is not text of a key's size.
    case unreadablePrivateKeyFile(String)
    /// The private key text is not a usable `.p8` key; the text says what it is instead.
    case invalidPrivateKey(String)
    /// Apple has no App Store Server API for this environment and no base URL was given.
    case noAPIForEnvironment(AppStoreEnvironment)
}

extension AppStoreServerAPIConfigurationError: CustomStringConvertible {
    /// A sentence naming the setting at fault.
    public var description: String {
        switch self {
        case .emptyKeyId: "the App Store Server API key id is empty"
        case .emptyIssuerId: "the App Store Server API issuer id is empty"
        case .emptyBundleId: "the bundle id is empty"
        case .unreadablePrivateKeyFile(let path): "the App Store Server API private key file \(path) cannot be read"
        case .invalidPrivateKey(let detail): "the App Store Server API private key is unusable: \(detail)"
        case .noAPIForEnvironment(let environment):
            "Apple has no App Store Server API for the \(environment.appleName) environment: give a base URL"
        }
    }
}
