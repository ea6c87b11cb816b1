/// A failure the App Store Server API stand-in answers one request with, instead of its data.
///
/// Faults are queued with ``AppStoreServerAPIStandIn/enqueue(_:)`` and each is used by the
/// next request whose token is accepted.
public enum AppStoreServerAPIStandInFault: Sendable, Hashable {
    /// HTTP 429 with Apple's `RateLimitExceededError` body and this `Retry-After` value, if any.
    case rateLimited(retryAfter: String?)
    /// This 5xx status with Apple's `GeneralInternalError` body.
    case serverError(status: Int = 500)
    /// HTTP 200 with a body that is not JSON.
    case malformedJSON
    /// HTTP 200 with valid JSON of this many bytes.
    case oversizedBody(bytes: Int)
}
