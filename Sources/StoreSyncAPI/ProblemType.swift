/// The kinds of error StoreSync answers, each with a stable type URI
/// `https://storesync.dev/errors/<slug>`, a title and its HTTP status.
public struct ProblemType: Sendable, Hashable, CaseIterable {
    /// The last path segment of the type URI, e.g. `owned-by-other-account`.
    public let slug: String
    /// The short, fixed summary RFC 9457 calls `title`.
    public let title: String
    /// The HTTP status this kind of problem is answered with.
    public let status: Int

    private init(_ slug: String, _ title: String, _ status: Int) {
        self.slug = slug
        self.title = title
        self.status = status
    }

    /// The prefix every StoreSync type URI shares.
    public static let uriPrefix = "https://storesync.dev/errors/"

    /// The type URI, e.g. `https://storesync.dev/errors/rate-limited`.
    public var uri: String { Self.uriPrefix + slug }

    /// The problem type with this URI.
    ///
    /// - Parameter uri: A type URI.
    /// - Returns: The problem type, or `nil` for a URI StoreSync does not define.
    public init?(uri: String) {
        guard let match = Self.allCases.first(where: { $0.uri == uri }) else { return nil }
        self = match
    }

    /// The request is well-formed JSON but a field is missing or invalid (400).
    public static let invalidRequest = ProblemType("invalid-request", "Invalid request", 400)
    /// The body is not JSON, or not of the expected shape (400).
    public static let malformedJSON = ProblemType("malformed-json", "Malformed JSON", 400)
    /// The body is not `application/json` (415).
    public static let unsupportedMediaType = ProblemType("unsupported-media-type", "Unsupported media type", 415)
    /// The body exceeds the configured limit (413).
    public static let payloadTooLarge = ProblemType("payload-too-large", "Payload too large", 413)
    /// No valid bearer token or admin key (401).
    public static let unauthorized = ProblemType("unauthorized", "Unauthorized", 401)
    /// Authenticated, but not allowed to do this (403).
    public static let forbidden = ProblemType("forbidden", "Forbidden", 403)
    /// No such resource (404).
    public static let notFound = ProblemType("not-found", "Not found", 404)
    /// An account with this email exists (409).
    public static let emailTaken = ProblemType("email-taken", "Email already registered", 409)
    /// The password does not meet the minimum strength (422).
    public static let weakPassword = ProblemType("weak-password", "Password too weak", 422)
    /// Wrong email or password; the same answer for an unknown email (401).
    public static let invalidCredentials = ProblemType("invalid-credentials", "Invalid email or password", 401)
    /// Too many attempts; retry later (429).
    public static let rateLimited = ProblemType("rate-limited", "Too many requests", 429)
    /// Another account owns the purchase and the transfer policy keeps it there (409).
    public static let ownedByOtherAccount = ProblemType("owned-by-other-account", "Purchase owned by another account", 409)
    /// A JWS failed verification: signature, chain, bundle or environment (422).
    public static let invalidSignedData = ProblemType("invalid-signed-data", "Invalid signed data", 422)
    /// Apple's verifyReceipt rejected the receipt (422).
    public static let receiptRejected = ProblemType("receipt-rejected", "Receipt rejected", 422)
    /// A JWS that verified, from an App Store environment this server does not take by policy:
    /// Sandbox on a Production server set to `STORESYNC_SANDBOX_IN_PRODUCTION=refuse`, Xcode or
    /// LocalTesting on a Production server, any other environment than its own on the others
    /// (422). Unlike ``invalidSignedData``, no change of trusted roots or bundle settings makes
    /// this server take it: the refusal is final.
    public static let environmentRefused = ProblemType("environment-refused", "Environment refused", 422)
    /// A dependency (PostgreSQL, Apple) is unavailable; retry later (503).
    public static let serviceUnavailable = ProblemType("service-unavailable", "Service unavailable", 503)
    /// The route needs the App Store Server API and its settings are not set (503).
    public static let appStoreAPINotConfigured = ProblemType(
        "appstore-api-not-configured", "App Store Server API not configured", 503)
    /// The App Store Server API refused the request or answered something unusable (502).
    public static let appStoreAPIError = ProblemType("appstore-api-error", "App Store Server API error", 502)
    /// An unexpected server error (500).
    public static let `internal` = ProblemType("internal", "Internal server error", 500)
    /// The resource's state does not allow this now, e.g. retrying a delivery that is pending (409).
    public static let conflict = ProblemType("conflict", "Conflict", 409)

    /// Every problem type StoreSync defines.
    public static let allCases: [ProblemType] = [
        .invalidRequest, .malformedJSON, .unsupportedMediaType, .payloadTooLarge, .unauthorized, .forbidden,
        .notFound, .emailTaken, .weakPassword, .invalidCredentials, .rateLimited, .ownedByOtherAccount,
        .invalidSignedData, .receiptRejected, .environmentRefused, .serviceUnavailable, .appStoreAPINotConfigured, .appStoreAPIError,
        .internal, .conflict,
    ]
}
