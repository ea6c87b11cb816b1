public import Crypto
public import Foundation

/// A throwaway App Store Connect API key, as App Store Connect would issue it: a key id, an
/// issuer id and an EC P-256 private key whose PEM is what a `.p8` file holds.
///
/// Give ``privateKeyPEM`` (or the file ``writeP8File(into:)`` writes) to the client, and the
/// key itself to ``AppStoreServerAPIStandIn``, which checks tokens against ``publicKey``.
public struct TestAppStoreAPIKey: Sendable {
    /// The key id (`kid`).
    public var keyId: String
    /// The issuer id (`iss`).
    public var issuerId: String
    /// The private key.
    public var privateKey: P256.Signing.PrivateKey

    /// The `.p8` text: PKCS#8 PEM, `-----BEGIN PRIVATE KEY-----`.
    public var privateKeyPEM: String { privateKey.pemRepresentation }
    /// What verifies the tokens the private key signs.
    public var publicKey: P256.Signing.PublicKey { privateKey.publicKey }

    /// Makes a key.
    ///
    /// - Parameters:
    ///   - keyId: The key id; ten characters, as Apple's are.
    ///   - issuerId: The issuer id; a fresh UUID by default.
    ///   - privateKey: The private key; a fresh one by default.
    public init(
        keyId: String = "STORESYNC1",
        issuerId: String = UUID().uuidString.lowercased(),
        privateKey: P256.Signing.PrivateKey = P256.Signing.PrivateKey()
    ) {
        self.keyId = keyId
        self.issuerId = issuerId
        self.privateKey = privateKey
    }

    /// Writes the key as App Store Connect names its downloads: `AuthKey_<keyId>.p8`.
    ///
    /// - Parameter directory: An existing directory.
    /// - Returns: The file's URL, e.g. for `STORESYNC_APPSTORE_API_PRIVATE_KEY`.
    /// - Throws: File-system errors.
    public func writeP8File(into directory: URL) throws -> URL {
        let file = directory.appendingPathComponent("AuthKey_\(keyId).p8")
        try Data(privateKeyPEM.utf8).write(to: file)
        return file
    }
}
