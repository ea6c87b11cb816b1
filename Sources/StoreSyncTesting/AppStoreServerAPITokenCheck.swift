import AppStorePayloads
import Crypto
import Foundation

/// Checks an App Store Server API bearer token the way Apple does, independently of the
/// client that made it: ES256 over the key's public half, `kid`, `typ`, and the claims
/// `iss`, `aud` (`appstoreconnect-v1`), `bid`, `iat` and `exp` (at most 60 minutes apart).
struct AppStoreServerAPITokenCheck: Sendable {
    /// How far `iat` may lie in the future, for clocks that disagree a little.
    static let allowedClockSkew: TimeInterval = 60

    var key: TestAppStoreAPIKey
    var bundleId: String

    /// Why the token is refused, or `nil` when it is accepted.
    ///
    /// - Parameters:
    ///   - authorization: The `Authorization` header.
    ///   - now: The stand-in's time.
    /// - Returns: The reason for a 401, or `nil`.
    func refusal(of authorization: String?, now: Date) -> String? {
        guard let authorization, authorization.hasPrefix("Bearer ") else { return "no bearer token" }
        let parts = authorization.dropFirst("Bearer ".count).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0].utf8),
            let claimsBytes = Base64URL.decode(parts[1].utf8), let signatureBytes = Base64URL.decode(parts[2].utf8)
        else { return "not a compact JWS" }
        guard let header = try? JSONDecoder().decode(Header.self, from: Data(headerBytes)),
            let claims = try? JSONDecoder().decode(Claims.self, from: Data(claimsBytes))
        else { return "the header or claims are not the JSON Apple expects" }
        if let refusal = refusal(of: header) ?? refusal(of: claims, now: now) { return refusal }
        let signingInput = Data("\(parts[0]).\(parts[1])".utf8)
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            key.publicKey.isValidSignature(signature, for: signingInput)
        else { return "the signature does not verify with the key's public half" }
        return nil
    }

    private func refusal(of header: Header) -> String? {
        if header.alg != "ES256" { return "alg is \(header.alg), not ES256" }
        if header.kid != key.keyId { return "kid is \(header.kid ?? "missing"), not \(key.keyId)" }
        if header.typ != "JWT" { return "typ is \(header.typ ?? "missing"), not JWT" }
        return nil
    }

    private func refusal(of claims: Claims, now: Date) -> String? {
        if claims.iss != key.issuerId { return "iss is \(claims.iss ?? "missing"), not the key's issuer" }
        if claims.aud != "appstoreconnect-v1" { return "aud is \(claims.aud ?? "missing"), not appstoreconnect-v1" }
        if claims.bid != bundleId { return "bid is \(claims.bid ?? "missing"), not \(bundleId)" }
        guard let iat = claims.iat, let exp = claims.exp else { return "iat or exp is missing" }
        if exp - iat > 3600 { return "exp is more than 60 minutes after iat" }
        if Double(iat) > now.timeIntervalSince1970 + Self.allowedClockSkew { return "iat is in the future" }
        if Double(exp) <= now.timeIntervalSince1970 { return "the token expired" }
        return nil
    }

    private struct Header: Decodable {
        var alg: String
        var kid: String?
        var typ: String?
    }

    private struct Claims: Decodable {
        var iss: String?
        var iat: Int64?
        var exp: Int64?
        var aud: String?
        var bid: String?
    }
}
