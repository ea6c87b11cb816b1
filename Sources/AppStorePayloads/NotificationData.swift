/// The `data` of a notification: which app and environment, and the signed transaction and
/// renewal info concerned (each a JWS of its own, verified separately).
public struct NotificationData: Sendable, Hashable, Codable {
    /// The app's Apple id (absent in sandbox).
    public var appAppleId: Int64?
    /// The app's bundle id.
    public var bundleId: String?
    /// The app's build version.
    public var bundleVersion: String?
    /// The environment in Apple's spelling.
    public var environment: String?
    /// The transaction as a JWS.
    public var signedTransactionInfo: String?
    /// The subscription renewal info as a JWS.
    public var signedRenewalInfo: String?
    /// The subscription status (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked).
    public var status: Int?
    /// Why the customer asked for a refund, on `CONSUMPTION_REQUEST`.
    public var consumptionRequestReason: String?

    /// Creates notification data.
    ///
    /// - Parameters:
    ///   - appAppleId: The app's Apple id.
    ///   - bundleId: The bundle id.
    ///   - bundleVersion: The build version.
    ///   - environment: Apple's spelling of the environment.
    ///   - signedTransactionInfo: The transaction JWS.
    ///   - signedRenewalInfo: The renewal info JWS.
    ///   - status: The subscription status.
    public init(
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        bundleVersion: String? = nil,
        environment: String? = nil,
        signedTransactionInfo: String? = nil,
        signedRenewalInfo: String? = nil,
        status: Int? = nil
    ) {
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.bundleVersion = bundleVersion
        self.environment = environment
        self.signedTransactionInfo = signedTransactionInfo
        self.signedRenewalInfo = signedRenewalInfo
        self.status = status
    }
}
