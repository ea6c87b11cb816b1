/// The `summary` of a `RENEWAL_EXTENSION` notification with subtype `SUMMARY`.
public struct NotificationSummary: Sendable, Hashable, Codable {
    /// The id of the mass-extension request.
    public var requestIdentifier: String?
    /// The environment in Apple's spelling.
    public var environment: String?
    /// The app's Apple id.
    public var appAppleId: Int64?
    /// The app's bundle id.
    public var bundleId: String?
    /// The subscription product extended.
    public var productId: String?
    /// The storefronts the extension applied to.
    public var storefrontCountryCodes: [String]?
    /// How many subscriptions could not be extended.
    public var failedCount: Int64?
    /// How many subscriptions were extended.
    public var succeededCount: Int64?

    /// Creates a summary.
    ///
    /// - Parameters:
    ///   - requestIdentifier: The request's id.
    ///   - environment: Apple's spelling of the environment.
    ///   - appAppleId: The app's Apple id.
    ///   - bundleId: The bundle id.
    ///   - productId: The product extended.
    ///   - failedCount: Failures.
    ///   - succeededCount: Successes.
    public init(
        requestIdentifier: String? = nil,
        environment: String? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        productId: String? = nil,
        failedCount: Int64? = nil,
        succeededCount: Int64? = nil
    ) {
        self.requestIdentifier = requestIdentifier
        self.environment = environment
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.productId = productId
        self.failedCount = failedCount
        self.succeededCount = succeededCount
    }
}
