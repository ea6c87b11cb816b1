public import Crypto
public import Foundation
public import StoreSyncCore

/// Who ``AppStoreServerAPIClient`` speaks for and where: the App Store Connect API key that
/// signs its tokens, the app, and Apple's base URL for the environment.
public struct AppStoreServerAPIConfiguration: Sendable {
    /// Apple's production base URL (the App Store Server API's current host; the older
    /// `api.storekit.itunes.apple.com` still answers).
    public static let productionURL = appleURL("https://api.storekit.apple.com")
    /// Apple's sandbox base URL.
    public static let sandboxURL = appleURL("https://api.storekit-sandbox.apple.com")
    /// The longest token lifetime Apple accepts.
    public static let maximumTokenLifetime = Duration.seconds(60 * 60)

    /// The key id from App Store Connect (`kid`).
    public var keyId: String
    /// The issuer id from App Store Connect (`iss`).
    public var issuerId: String
    /// The `.p8` private key that signs every token.
    public var privateKey: P256.Signing.PrivateKey
    /// The app's bundle id (`bid`).
    public var bundleId: String
    /// The environment asked: it picks the default base URL.
    public var environment: AppStoreEnvironment
    /// Where requests go: Apple's URL for ``environment`` unless overridden (tests, proxies).
    public var baseURL: URL
    /// The most one request may take.
    public var timeout: Duration
    /// The most requests sent for one call, retries included (at least 1).
    public var maxAttempts: Int
    /// The wait before the first retry when Apple names none; it doubles on each further retry.
    public var retryBackoff: Duration
    /// The longest wait before a retry; a `Retry-After` further away ends the call instead.
    public var maximumRetryWait: Duration
    /// How long a token is valid (`exp − iat`), at most ``maximumTokenLifetime``.
    public var tokenLifetime: Duration
    /// A token with less than this left is replaced before it is sent.
    public var tokenRenewalMargin: Duration
    /// The most pages one collecting call fetches; it then returns with `hasMore` set.
    public var maximumPages: Int

    /// Creates a configuration and checks the key.
    ///
    /// - Parameters:
    ///   - keyId: The key id from App Store Connect.
    ///   - issuerId: The issuer id from App Store Connect.
    ///   - privateKeyPEM: The text of the `.p8` file (`-----BEGIN PRIVATE KEY-----`).
    ///   - bundleId: The app's bundle id.
    ///   - environment: `production` or `sandbox` (others need `baseURL`).
    ///   - baseURL: Overrides Apple's URL for the environment.
    ///   - timeout: The most one request may take.
    ///   - maxAttempts: The most requests per call.
    ///   - retryBackoff: The first retry's wait when Apple names none.
    ///   - maximumRetryWait: The longest wait before a retry.
    ///   - tokenLifetime: How long a token is valid; clamped to ``maximumTokenLifetime``.
    ///   - tokenRenewalMargin: How early a token is replaced.
    ///   - maximumPages: The most pages one collecting call fetches.
    /// - Throws: ``AppStoreServerAPIConfigurationError`` naming what is wrong.
    public init(
        keyId: String,
        issuerId: String,
        privateKeyPEM: String,
        bundleId: String,
        environment: AppStoreEnvironment,
        baseURL: URL? = nil,
        timeout: Duration = .seconds(30),
        maxAttempts: Int = 4,
        retryBackoff: Duration = .seconds(1),
        maximumRetryWait: Duration = .seconds(60),
        tokenLifetime: Duration = .seconds(30 * 60),
        tokenRenewalMargin: Duration = .seconds(5 * 60),
        maximumPages: Int = 100
    ) throws(AppStoreServerAPIConfigurationError) {
        guard !keyId.isEmpty else { throw .emptyKeyId }
        guard !issuerId.isEmpty else { throw .emptyIssuerId }
        guard !bundleId.isEmpty else { throw .emptyBundleId }
        self.privateKey = try Self.parsePrivateKey(privateKeyPEM)
        switch (baseURL, environment) {
        case (let url?, _): self.baseURL = url
        case (nil, .production): self.baseURL = Self.productionURL
        case (nil, .sandbox): self.baseURL = Self.sandboxURL
        case (nil, .xcode), (nil, .localTesting): throw .noAPIForEnvironment(environment)
        }
        self.keyId = keyId
        self.issuerId = issuerId
        self.bundleId = bundleId
        self.environment = environment
        self.timeout = timeout
        self.maxAttempts = max(1, maxAttempts)
        self.retryBackoff = retryBackoff
        self.maximumRetryWait = maximumRetryWait
        self.tokenLifetime = min(max(tokenLifetime, .seconds(60)), Self.maximumTokenLifetime)
        self.tokenRenewalMargin = min(max(tokenRenewalMargin, .zero), self.tokenLifetime / 2)
        self.maximumPages = max(1, maximumPages)
    }

    private static func appleURL(_ text: String) -> URL {
        guard let url = URL(string: text) else { preconditionFailure("Apple's base URL literal is a valid URL") }
        return url
    }
}
