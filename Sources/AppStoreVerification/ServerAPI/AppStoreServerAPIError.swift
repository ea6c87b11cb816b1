public import Foundation

/// Why a call to the App Store Server API gave no answer.
///
/// Signed items that fail verification are not errors: a call that got an answer returns its
/// verified items and reports the others as skipped.
public enum AppStoreServerAPIError: Error, Sendable, Hashable {
    /// An argument cannot be sent (empty, too long, or characters outside Apple's ids);
    /// nothing was sent.
    case invalidArgument(String)
    /// Apple refused the token (HTTP 401): the key id, issuer id, private key or bundle id
    /// is wrong, or the key was revoked.
    case unauthorized(keyId: String, issuerId: String, bundleId: String)
    /// Apple knows no such transaction, order or token (HTTP 404).
    case notFound(AppStoreServerAPIErrorPayload)
    /// Apple refused the request (another 4xx).
    case rejected(status: Int, AppStoreServerAPIErrorPayload)
    /// Still rate limited (HTTP 429) after the retries, or Apple asked for a longer wait than
    /// the configured maximum; `retryAfter` is when Apple said to come back.
    case rateLimited(retryAfter: Date?, AppStoreServerAPIErrorPayload)
    /// Apple's server kept failing (HTTP 5xx) through every attempt.
    case unavailable(status: Int, AppStoreServerAPIErrorPayload)
    /// No HTTP answer within the timeout and attempts (connection refused, reset, timed out).
    case unreachable(String)
    /// The answer was not the JSON Apple documents, or larger than allowed.
    case malformedResponse(String)
    /// The task was cancelled while waiting to retry.
    case cancelled

    /// Apple's error body, for the cases that carry one.
    public var payload: AppStoreServerAPIErrorPayload? {
        switch self {
        case .notFound(let payload), .rejected(_, let payload), .rateLimited(_, let payload),
            .unavailable(_, let payload):
            payload
        case .invalidArgument, .unauthorized, .unreachable, .malformedResponse, .cancelled: nil
        }
    }
}

extension AppStoreServerAPIError: CustomStringConvertible {
    /// A sentence saying what went wrong, with Apple's code and message when it gave them.
    public var description: String {
        switch self {
        case .invalidArgument(let detail): "invalid App Store Server API argument: \(detail)"
        case .unauthorized(let keyId, let issuerId, let bundleId):
            "the App Store Server API refused the credentials (HTTP 401): check the key id (\(keyId)), "
                + "the issuer id (\(issuerId)), the .p8 private key and the bundle id (\(bundleId))"
        case .notFound(let payload): "not found by the App Store Server API (HTTP 404, \(payload))"
        case .rejected(let status, let payload):
            "the App Store Server API refused the request (HTTP \(status), \(payload))"
        case .rateLimited(let retryAfter, let payload):
            "rate limited by the App Store Server API (HTTP 429, \(payload))"
                + (retryAfter.map { "; retry after \($0.formatted(.iso8601))" } ?? "")
        case .unavailable(let status, let payload):
            "the App Store Server API is failing (HTTP \(status), \(payload))"
        case .unreachable(let detail): "the App Store Server API is unreachable: \(detail)"
        case .malformedResponse(let detail): "malformed answer from the App Store Server API: \(detail)"
        case .cancelled: "cancelled while waiting to retry the App Store Server API"
        }
    }
}
