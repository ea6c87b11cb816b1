import Foundation
import Crypto

extension AppStoreServerAPIConfiguration {
    /// Reads the `.p8` file App Store Connect gave (`STORESYNC_APPSTORE_API_PRIVATE_KEY`).
    ///
    /// - Parameter path: The file's path.
    /// - Returns: Its text, for ``init(keyId:issuerId:privateKeyPEM:bundleId:environment:baseURL:timeout:maxAttempts:retryBackoff:maximumRetryWait:tokenLifetime:tokenRenewalMargin:maximumPages:)``.
    /// - Throws: ``AppStoreServerAPIConfigurationError/unreadablePrivateKeyFile(_:)`` naming the path.
    public static func readPrivateKey(atPath path: String) throws(AppStoreServerAPIConfigurationError) -> String {
        // A .p8 file is a few hundred bytes; anything far larger is not one.
        guard let data = FileManager.default.contents(atPath: path), data.count <= 64 * 1024,
            let text = String(data: data, encoding: .utf8)
        else { throw .unreadablePrivateKeyFile(path) }
        return text
    }

    /// Reads the `.p8` key, saying what the text is when it is not an EC P-256 private key.
    ///
    /// The messages never echo key material.
    static func parsePrivateKey(_ pem: String) throws(AppStoreServerAPIConfigurationError) -> P256.Signing.PrivateKey {
        let text = pem.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw .invalidPrivateKey("the private key is empty") }
        guard let label = pemLabel(of: text) else {
            throw .invalidPrivateKey(
                "not a PEM file: expected the .p8 file from App Store Connect (-----BEGIN PRIVATE KEY-----)")
        }
        if let key = try? P256.Signing.PrivateKey(pemRepresentation: text) { return key }
        switch label {
        case "PUBLIC KEY", "CERTIFICATE":
            throw .invalidPrivateKey("the PEM holds a \(label.lowercased()), not the private key")
        case "ENCRYPTED PRIVATE KEY":
            throw .invalidPrivateKey("the private key is encrypted: use the .p8 file as App Store Connect gave it")
        default:
            if (try? P384.Signing.PrivateKey(pemRepresentation: text)) != nil
                || (try? P521.Signing.PrivateKey(pemRepresentation: text)) != nil
            {
                throw .invalidPrivateKey("an EC key on another curve: App Store keys are P-256 (ES256)")
            }
            throw .invalidPrivateKey("the PEM (\(label)) is not an EC P-256 private key")
        }
    }

    /// The label of the first PEM block (`PRIVATE KEY`), or `nil` when there is none.
    private static func pemLabel(of text: String) -> String? {
        let prefix = "-----BEGIN "
        guard let start = text.range(of: prefix), let end = text[start.upperBound...].range(of: "-----") else {
            return nil
        }
        return String(text[start.upperBound..<end.lowerBound])
    }
}
