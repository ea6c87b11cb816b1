public import Foundation
public import StoreSyncCore

/// Where and how ``ReceiptVerifier`` asks Apple about a legacy app receipt.
public struct ReceiptVerifierConfiguration: Sendable {
    /// Apple's production endpoint.
    public static let appleProductionURL = appleURL("https://buy.itunes.apple.com/verifyReceipt")
    /// Apple's sandbox endpoint.
    public static let appleSandboxURL = appleURL("https://sandbox.itunes.apple.com/verifyReceipt")
    /// The default of ``timeout``.
    public static let defaultTimeout = Duration.seconds(10)
    /// The default of ``totalTimeout``.
    public static let defaultTotalTimeout = Duration.seconds(15)

    /// The app's bundle id; a receipt of another bundle is refused.
    public var bundleId: String
    /// Asked first (`STORESYNC_VERIFY_RECEIPT_URL`).
    public var productionURL: URL
    /// Asked after a 21007 (`STORESYNC_VERIFY_RECEIPT_SANDBOX_URL`).
    public var sandboxURL: URL
    /// The app-specific shared secret, needed for auto-renewable subscriptions.
    public var sharedSecret: String?
    /// Whether Apple should leave old renewals out of `latest_receipt_info`.
    public var excludeOldTransactions: Bool
    /// The most one request may take.
    public var timeout: Duration
    /// The most one verification may take in all: every attempt at both endpoints and the
    /// waits between them. A device waiting on a restore gets Apple's answer, or a refusal it
    /// can retry, within this, even when Apple's endpoint answers nothing at all (three
    /// attempts of ``timeout`` each would otherwise hold it for over half a minute).
    public var totalTimeout: Duration
    /// The most requests sent to one endpoint for one receipt (at least 1).
    public var maxAttempts: Int
    /// The wait before the first retry; it doubles on each further retry.
    public var retryBackoff: Duration
    /// The endpoint asked first: production, as Apple advises; a 21007 or 21008 answer moves
    /// to the other one once.
    public var firstEnvironment: AppStoreEnvironment
    /// The product type of each product id, from the catalog: a receipt entry does not say
    /// it. Entries with an expiry date and no listed type are auto-renewable; other unlisted
    /// entries are not guessed: their records are ``StoreSyncCore/ProductType/unstated`` and
    /// their products are listed in ``VerifiedReceipt/unclassifiedProductIds``.
    public var productTypes: [String: ProductType]

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - bundleId: The app's bundle id.
    ///   - productionURL: The production endpoint.
    ///   - sandboxURL: The sandbox endpoint.
    ///   - sharedSecret: The app-specific shared secret.
    ///   - excludeOldTransactions: Whether to leave out old renewals.
    ///   - timeout: The most one request may take.
    ///   - totalTimeout: The most the whole verification may take.
    ///   - maxAttempts: The most requests per endpoint.
    ///   - retryBackoff: The first retry's wait.
    ///   - productTypes: Product types by product id.
    ///   - firstEnvironment: The endpoint asked first (`sandbox` asks the sandbox URL first).
    public init(
        bundleId: String,
        productionURL: URL = Self.appleProductionURL,
        sandboxURL: URL = Self.appleSandboxURL,
        sharedSecret: String? = nil,
        excludeOldTransactions: Bool = false,
        timeout: Duration = Self.defaultTimeout,
        totalTimeout: Duration = Self.defaultTotalTimeout,
        maxAttempts: Int = 3,
        retryBackoff: Duration = .milliseconds(500),
        productTypes: [String: ProductType] = [:],
        firstEnvironment: AppStoreEnvironment = .production
    ) {
        self.bundleId = bundleId
        self.productionURL = productionURL
        self.sandboxURL = sandboxURL
        self.sharedSecret = sharedSecret
        self.excludeOldTransactions = excludeOldTransactions
        self.timeout = timeout
        self.totalTimeout = totalTimeout
        self.maxAttempts = max(1, maxAttempts)
        self.retryBackoff = retryBackoff
        self.productTypes = productTypes
        self.firstEnvironment = firstEnvironment == .sandbox ? .sandbox : .production
    }

    private static func appleURL(_ text: String) -> URL {
        guard let url = URL(string: text) else { preconditionFailure("Apple's endpoint literal is a valid URL") }
        return url
    }
}
