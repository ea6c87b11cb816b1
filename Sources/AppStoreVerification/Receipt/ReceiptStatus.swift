/// The `status` of Apple's verifyReceipt answer.
///
/// A struct over the number, so a status Apple adds later is kept and reported rather than
/// failing the decoding.
public struct ReceiptStatus: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// Apple's number.
    public var rawValue: Int

    /// Wraps Apple's number, known or not.
    ///
    /// - Parameter rawValue: The `status` field.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Decodes the bare JSON number.
    ///
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when the value is not an integer.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int.self)
    }

    /// Encodes the bare JSON number.
    ///
    /// - Parameter encoder: The encoder.
    /// - Throws: `EncodingError` from the encoder.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// 0: the receipt is valid.
    public static let valid = Self(rawValue: 0)
    /// 21000: the request was not an HTTP POST.
    public static let notPost = Self(rawValue: 21000)
    /// 21001: no longer sent by the App Store.
    public static let unused21001 = Self(rawValue: 21001)
    /// 21002: the receipt data was malformed, or the service had a temporary issue.
    public static let malformedReceiptData = Self(rawValue: 21002)
    /// 21003: the receipt could not be authenticated.
    public static let notAuthenticated = Self(rawValue: 21003)
    /// 21004: the shared secret does not match the account's.
    public static let sharedSecretMismatch = Self(rawValue: 21004)
    /// 21005: the receipt server was temporarily unable to provide the receipt.
    public static let serverUnavailable = Self(rawValue: 21005)
    /// 21006: the receipt is valid but its subscription has expired (iOS 6-style receipts).
    public static let subscriptionExpired = Self(rawValue: 21006)
    /// 21007: a sandbox receipt was sent to the production endpoint.
    public static let sandboxReceipt = Self(rawValue: 21007)
    /// 21008: a production receipt was sent to the sandbox endpoint.
    public static let productionReceipt = Self(rawValue: 21008)
    /// 21009: internal data access error; try again later.
    public static let internalDataAccessError = Self(rawValue: 21009)
    /// 21010: the user account cannot be found or has been deleted.
    public static let accountNotFound = Self(rawValue: 21010)

    /// Whether Apple vouched for the receipt's content (0, and 21006 which still carries it).
    public var isValid: Bool { self == .valid || self == .subscriptionExpired }

    /// Whether the same request may succeed if sent again: Apple's temporary failures
    /// (21002, 21005, 21009) and its internal data access errors (21100–21199).
    public var isRetryable: Bool {
        switch rawValue {
        case 21002, 21005, 21009, 21100...21199: true
        default: false
        }
    }

    /// What the status means, in Apple's words where it has some.
    public var description: String {
        switch rawValue {
        case 0: "0: the receipt is valid"
        case 21000: "21000: the request to the App Store was not made using HTTP POST"
        case 21001: "21001: status no longer sent by the App Store"
        case 21002: "21002: the receipt data was malformed or the service had a temporary issue"
        case 21003: "21003: the receipt could not be authenticated"
        case 21004: "21004: the shared secret does not match the one on file for the account"
        case 21005: "21005: the receipt server was temporarily unable to provide the receipt"
        case 21006: "21006: the receipt is valid but the subscription has expired"
        case 21007: "21007: this receipt is from the test environment (sandbox)"
        case 21008: "21008: this receipt is from the production environment"
        case 21009: "21009: internal data access error"
        case 21010: "21010: the user account cannot be found or has been deleted"
        case 21100...21199: "\(rawValue): internal data access error"
        default: "\(rawValue): unknown status"
        }
    }
}
