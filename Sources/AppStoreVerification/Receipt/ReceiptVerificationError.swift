/// Why a legacy app receipt could not be verified.
public enum ReceiptVerificationError: Error, Sendable, Hashable {
    /// The receipt data is empty, too large or not base64; nothing was sent to Apple.
    case invalidReceiptData(String)
    /// Apple answered with a status that is not a valid receipt (after any retries and the
    /// 21007/21008 environment switch).
    case rejected(ReceiptStatus)
    /// No usable answer within the configured timeout and attempts.
    case unreachable(String)
    /// Apple's answer was not the JSON shape of verifyReceipt.
    case malformedResponse(String)
    /// The receipt belongs to another app's bundle id.
    case bundleMismatch
}

extension ReceiptVerificationError: CustomStringConvertible {
    /// A sentence that says what went wrong.
    public var description: String {
        switch self {
        case .invalidReceiptData(let detail): "invalid receipt data: \(detail)"
        case .rejected(let status): "the App Store rejected the receipt (status \(status))"
        case .unreachable(let detail): "the App Store receipt service is unreachable: \(detail)"
        case .malformedResponse(let detail): "malformed answer from the App Store receipt service: \(detail)"
        case .bundleMismatch: "the receipt belongs to another bundle id"
        }
    }
}
