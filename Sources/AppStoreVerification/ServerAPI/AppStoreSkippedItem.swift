/// A signed item the App Store Server API returned that was not accepted: it failed
/// verification, names another bundle id or environment, or does not decode.
public struct AppStoreSkippedItem: Sendable, Hashable {
    /// What kind of signed item it was.
    public enum Kind: String, Sendable, Hashable {
        /// A `signedTransactionInfo` or an entry of `signedTransactions`.
        case transaction
        /// A `signedRenewalInfo`.
        case renewalInfo
        /// A notification's `signedPayload`.
        case notification
    }

    /// What kind of signed item it was.
    public var kind: Kind
    /// Why it was refused.
    public var reason: VerificationError

    /// Describes a skipped item.
    ///
    /// - Parameters:
    ///   - kind: What kind of item.
    ///   - reason: Why it was refused.
    public init(kind: Kind, reason: VerificationError) {
        self.kind = kind
        self.reason = reason
    }
}
