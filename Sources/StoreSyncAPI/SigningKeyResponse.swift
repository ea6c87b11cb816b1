/// The server's snapshot-signing public key, so clients can check snapshots offline.
public struct SigningKeyResponse: Sendable, Hashable, Codable {
    /// The signature algorithm; always `Ed25519`.
    public var algorithm: String
    /// Base64 of the raw 32-byte Ed25519 public key.
    public var publicKey: String

    /// Creates a signing key response.
    ///
    /// - Parameters:
    ///   - algorithm: The algorithm, `Ed25519` unless told otherwise.
    ///   - publicKey: Base64 of the raw public key.
    public init(algorithm: String = "Ed25519", publicKey: String) {
        self.algorithm = algorithm
        self.publicKey = publicKey
    }
}
