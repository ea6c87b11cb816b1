/// How Apple revoked a transaction (`revocationType`).
public struct RevocationType: AppleStringValue {
    /// Apple's spelling of the value.
    public var rawValue: String

    /// Wraps Apple's spelling, known or not.
    ///
    /// - Parameter rawValue: The value as it appears in the signed JSON.
    public init(rawValue: String) { self.rawValue = rawValue }
}

extension RevocationType {
    /// A full refund.
    public static let refundFull: Self = "REFUND_FULL"
    /// A partial refund.
    public static let refundProrated: Self = "REFUND_PRORATED"
    /// Family Sharing access was withdrawn.
    public static let familyRevoke: Self = "FAMILY_REVOKE"
}
