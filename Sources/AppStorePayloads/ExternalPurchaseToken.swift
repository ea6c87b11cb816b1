public import Foundation

/// The `externalPurchaseToken` of an `EXTERNAL_PURCHASE_TOKEN` notification.
public struct ExternalPurchaseToken: Sendable, Hashable, Codable {
    /// The token's id; sandbox ids start with `SANDBOX`.
    public var externalPurchaseId: String?
    /// When the token was created.
    public var tokenCreationDate: Date?
    /// The app's Apple id.
    public var appAppleId: Int64?
    /// The app's bundle id.
    public var bundleId: String?

    /// Creates a token description.
    ///
    /// - Parameters:
    ///   - externalPurchaseId: The token's id.
    ///   - tokenCreationDate: When it was created.
    ///   - appAppleId: The app's Apple id.
    ///   - bundleId: The bundle id.
    public init(externalPurchaseId: String? = nil, tokenCreationDate: Date? = nil, appAppleId: Int64? = nil, bundleId: String? = nil) {
        self.externalPurchaseId = externalPurchaseId
        self.tokenCreationDate = tokenCreationDate
        self.appAppleId = appAppleId
        self.bundleId = bundleId
    }

    /// Apple's rule: a token whose id starts with `SANDBOX` is a sandbox token.
    package var environment: String {
        externalPurchaseId?.hasPrefix("SANDBOX") == true ? "Sandbox" : "Production"
    }
}
