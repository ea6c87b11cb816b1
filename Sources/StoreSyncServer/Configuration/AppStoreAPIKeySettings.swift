/// The App Store Connect key the server signs its App Store Server API requests with:
/// `STORESYNC_APPSTORE_API_KEY_ID`, `STORESYNC_APPSTORE_API_ISSUER_ID` and
/// `STORESYNC_APPSTORE_API_PRIVATE_KEY` (the path of the `.p8` file).
public struct AppStoreAPIKeySettings: Sendable, Hashable {
    /// The key id from App Store Connect.
    public var keyId: String
    /// The issuer id from App Store Connect.
    public var issuerId: String
    /// The path of the `.p8` private key file.
    public var privateKeyPath: String

    /// The settings that turn the App Store Server API on, in the order messages name them.
    public static let settings: [Setting] = [.appStoreAPIKeyId, .appStoreAPIIssuerId, .appStoreAPIPrivateKey]

    /// Describes a key.
    ///
    /// - Parameters:
    ///   - keyId: The key id.
    ///   - issuerId: The issuer id.
    ///   - privateKeyPath: The `.p8` file's path.
    public init(keyId: String, issuerId: String, privateKeyPath: String) {
        self.keyId = keyId
        self.issuerId = issuerId
        self.privateKeyPath = privateKeyPath
    }

    /// Takes the three settings together: all of them, or none (the API is off).
    ///
    /// - Parameters:
    ///   - keyId: `STORESYNC_APPSTORE_API_KEY_ID`, if set.
    ///   - issuerId: `STORESYNC_APPSTORE_API_ISSUER_ID`, if set.
    ///   - privateKeyPath: `STORESYNC_APPSTORE_API_PRIVATE_KEY`, if set.
    /// - Throws: ``ConfigurationError`` naming the first missing setting when only some are set.
    init?(keyId: String?, issuerId: String?, privateKeyPath: String?) throws(ConfigurationError) {
        let values = [keyId, issuerId, privateKeyPath]
        guard values.contains(where: { $0 != nil }) else { return nil }
        guard let keyId, let issuerId, let privateKeyPath else {
            let given = zip(Self.settings, values).filter { $0.1 != nil }.map(\.0.environmentName)
            let missing = zip(Self.settings, values).first { $0.1 == nil }?.0 ?? .appStoreAPIKeyId
            throw ConfigurationError(
                setting: missing,
                problem: "is required with \(given.joined(separator: " and ")): the three App Store Server API settings go together, or none")
        }
        self.init(keyId: keyId, issuerId: issuerId, privateKeyPath: privateKeyPath)
    }
}
