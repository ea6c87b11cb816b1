import AppStorePayloads
import Crypto
import Foundation

/// One signed JSON Web Token for the App Store Server API, as Apple requires it: header
/// `{alg: ES256, kid, typ: JWT}`, claims `{iss, iat, exp, aud: appstoreconnect-v1, bid}`,
/// signed with the `.p8` key (ES256: the raw 64-byte r‖s signature, base64url).
struct AppStoreServerAPIToken: Sendable, Hashable {
    /// The audience Apple expects in every token.
    static let audience = "appstoreconnect-v1"

    /// The compact token, for `Authorization: Bearer`.
    let value: String
    /// When it stops being valid (`exp`).
    let expiresAt: Date

    /// Signs a new token.
    ///
    /// - Parameters:
    ///   - configuration: The key, issuer, bundle id and lifetime.
    ///   - now: The issue time; whole seconds are written, as JWT numeric dates are.
    /// - Throws: What the signing key throws (not expected for a valid P-256 key).
    init(configuration: AppStoreServerAPIConfiguration, now: Date) throws {
        let issuedAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let expiresAt = issuedAt + configuration.tokenLifetime.components.seconds
        let header = Header(alg: "ES256", kid: configuration.keyId, typ: "JWT")
        let claims = Claims(
            iss: configuration.issuerId, iat: issuedAt, exp: expiresAt, aud: Self.audience,
            bid: configuration.bundleId)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let signingInput =
            Base64URL.encode(try encoder.encode(header)) + "." + Base64URL.encode(try encoder.encode(claims))
        let signature = try configuration.privateKey.signature(for: Data(signingInput.utf8))
        self.value = signingInput + "." + Base64URL.encode(signature.rawRepresentation)
        self.expiresAt = Date(timeIntervalSince1970: TimeInterval(expiresAt))
    }

    private struct Header: Encodable {
        var alg: String
        var kid: String
        var typ: String
    }

    private struct Claims: Encodable {
        var iss: String
        var iat: Int64
        var exp: Int64
        var aud: String
        var bid: String
    }
}
