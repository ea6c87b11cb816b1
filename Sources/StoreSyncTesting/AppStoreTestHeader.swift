/// The JWS header an ``AppStoreTestSigner`` writes, adjustable for edge-case tests.
public struct AppStoreTestHeader: Sendable, Hashable {
    /// The `alg` value; a verifier accepts only `ES256`.
    public var alg: String
    /// The `x5c` chain; `nil` means the signer's PKI chain (leaf, intermediate, root).
    public var x5c: [String]?
    /// Leave `x5c` out of the header altogether.
    public var omitX5c: Bool
    /// Further string-valued header parameters (e.g. `typ`, `kid`).
    public var extra: [String: String]

    /// Creates a header description.
    ///
    /// - Parameters:
    ///   - alg: The algorithm name.
    ///   - x5c: The chain, or `nil` for the PKI's.
    ///   - omitX5c: Leave `x5c` out.
    ///   - extra: Further parameters.
    public init(alg: String = "ES256", x5c: [String]? = nil, omitX5c: Bool = false, extra: [String: String] = [:]) {
        self.alg = alg
        self.x5c = x5c
        self.omitX5c = omitX5c
        self.extra = extra
    }
}
