/// One request the App Store Server API stand-in received.
public struct AppStoreServerAPIStandInRequest: Sendable, Hashable {
    /// `GET` or `POST`.
    public var method: String
    /// The path, e.g. `/inApps/v2/history/1000`.
    public var path: String
    /// The query parameters, percent-decoded.
    public var query: [String: String]
    /// The JSON body, for POST.
    public var body: String?
    /// The bearer token sent, if any.
    public var token: String?
    /// Why the token was refused with 401; `nil` when it was accepted.
    public var tokenRefusal: String?

    /// Describes a request.
    ///
    /// - Parameters:
    ///   - method: The method.
    ///   - path: The path.
    ///   - query: The query parameters.
    ///   - body: The body.
    ///   - token: The bearer token.
    ///   - tokenRefusal: Why the token was refused.
    public init(
        method: String, path: String, query: [String: String] = [:], body: String? = nil, token: String? = nil,
        tokenRefusal: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.token = token
        self.tokenRefusal = tokenRefusal
    }
}
