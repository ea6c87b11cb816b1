/// Why a transaction happened (`transactionReason`).
public struct TransactionReason: AppleStringValue {
    /// Apple's spelling of the value.
    public var rawValue: String

    /// Wraps Apple's spelling, known or not.
    ///
    /// - Parameter rawValue: The value as it appears in the signed JSON.
    public init(rawValue: String) { self.rawValue = rawValue }
}

extension TransactionReason {
    /// The customer bought it.
    public static let purchase: Self = "PURCHASE"
    /// A subscription renewed automatically.
    public static let renewal: Self = "RENEWAL"
}
