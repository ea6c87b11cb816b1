/// Apple's status of an auto-renewable subscription (`status` in Get All Subscription
/// Statuses), kept as its number so values Apple adds later pass through.
public struct AppStoreSubscriptionStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// Apple's number.
    public var rawValue: Int

    /// Wraps Apple's number, known or not.
    ///
    /// - Parameter rawValue: The `status`.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// 1: active.
    public static let active = Self(rawValue: 1)
    /// 2: expired.
    public static let expired = Self(rawValue: 2)
    /// 3: in the billing retry period.
    public static let billingRetry = Self(rawValue: 3)
    /// 4: in the billing grace period.
    public static let billingGracePeriod = Self(rawValue: 4)
    /// 5: revoked (refunded, or Family Sharing access removed).
    public static let revoked = Self(rawValue: 5)

    /// The number, as Apple documents it.
    public var description: String { String(rawValue) }
}
