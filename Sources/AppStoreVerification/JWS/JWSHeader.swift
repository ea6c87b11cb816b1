/// The protected header of an App Store JWS: the algorithm and the certificate chain.
struct JWSHeader: Decodable, Sendable {
    /// The signature algorithm; only `ES256` is accepted.
    var alg: String
    /// Base64 (not base64url) DER certificates: leaf, intermediate, root.
    var x5c: [String]?
    /// Header parameters the signer says must be understood; we understand none.
    var crit: [String]? = nil
}
