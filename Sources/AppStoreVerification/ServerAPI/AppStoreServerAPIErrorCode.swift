/// Apple's `errorCode` in an App Store Server API error body, kept as its number so codes
/// Apple adds later pass through; the ones StoreSync acts on are named.
public struct AppStoreServerAPIErrorCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Apple's number, e.g. `4040010`.
    public var rawValue: Int64

    /// Wraps Apple's number, known or not.
    ///
    /// - Parameter rawValue: The `errorCode`.
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Decodes the bare JSON number.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when the value is not an integer.
    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(Int64.self))
    }

    /// Encodes the bare JSON number.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: `EncodingError` from the encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The number, as Apple documents it.
    public var description: String { String(rawValue) }

    /// Whether Apple's documentation says the same request may succeed later.
    public var isRetryable: Bool { Self.retryable.contains(self) }

    private static let retryable: Set<Self> = [
        .accountNotFoundRetryable, .appNotFoundRetryable, .originalTransactionIdNotFoundRetryable,
        .rateLimitExceeded, .generalInternalRetryable,
    ]
}

extension AppStoreServerAPIErrorCode {
    /// 4000000: the request is invalid.
    public static let generalBadRequest = Self(rawValue: 4_000_000)
    /// 4000005: the `revision` token is invalid.
    public static let invalidRequestRevision = Self(rawValue: 4_000_005)
    /// 4000006: the transaction id is invalid.
    public static let invalidTransactionId = Self(rawValue: 4_000_006)
    /// 4000012: the notification history start date is too far in the past (180 days).
    public static let startDateTooFarInPast = Self(rawValue: 4_000_012)
    /// 4000013: the notification history start date is after its end date.
    public static let startDateAfterEndDate = Self(rawValue: 4_000_013)
    /// 4000014: the pagination token is invalid.
    public static let invalidPaginationToken = Self(rawValue: 4_000_014)
    /// 4000017: the pagination token expired.
    public static let paginationTokenExpired = Self(rawValue: 4_000_017)
    /// 4000020: the test notification token is invalid.
    public static let invalidTestNotificationToken = Self(rawValue: 4_000_020)
    /// 4040001: no such App Store account.
    public static let accountNotFound = Self(rawValue: 4_040_001)
    /// 4040002: no such account, yet; try again.
    public static let accountNotFoundRetryable = Self(rawValue: 4_040_002)
    /// 4040003: no such app.
    public static let appNotFound = Self(rawValue: 4_040_003)
    /// 4040004: no such app, yet; try again.
    public static let appNotFoundRetryable = Self(rawValue: 4_040_004)
    /// 4040005: no such original transaction id.
    public static let originalTransactionIdNotFound = Self(rawValue: 4_040_005)
    /// 4040006: no such original transaction id, yet; try again.
    public static let originalTransactionIdNotFoundRetryable = Self(rawValue: 4_040_006)
    /// 4040007: no App Store Server Notifications URL is set for the app.
    public static let serverNotificationURLNotFound = Self(rawValue: 4_040_007)
    /// 4040008: no test notification for that token.
    public static let testNotificationNotFound = Self(rawValue: 4_040_008)
    /// 4040010: no such transaction id.
    public static let transactionIdNotFound = Self(rawValue: 4_040_010)
    /// 4290000: too many requests.
    public static let rateLimitExceeded = Self(rawValue: 4_290_000)
    /// 5000000: Apple's server failed.
    public static let generalInternal = Self(rawValue: 5_000_000)
    /// 5000001: Apple's server failed; try again.
    public static let generalInternalRetryable = Self(rawValue: 5_000_001)
}
