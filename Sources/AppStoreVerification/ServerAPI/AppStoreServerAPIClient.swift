public import AsyncHTTPClient
public import Foundation
public import Logging

/// A client of Apple's App Store Server API: transaction history, subscription statuses,
/// notification history, order lookup and test notifications.
///
/// Every request carries an ES256 token signed with the configured `.p8` key; one token is
/// reused until shortly before it expires. `429` and `5xx` answers and transport failures are
/// retried with doubling backoff, or after the wait Apple names in `Retry-After`, up to
/// ``AppStoreServerAPIConfiguration/maxAttempts``; other failures are typed
/// ``AppStoreServerAPIError``s.
///
/// Every signed item in an answer is checked by the same ``SignedDataVerifier`` as a device's
/// upload. An item that fails (bad signature or chain, another bundle id or environment, a
/// payload that does not decode) is never returned: it is logged at warning and listed in the
/// result's `skipped`. Give the client the verifier of the environment it asks.
///
/// Paged endpoints come in two forms: `…Page` fetches one page from a continuation token, and
/// the collecting form follows `hasMore` through up to
/// ``AppStoreServerAPIConfiguration/maximumPages`` pages and returns one value whose `hasMore`
/// and token say whether and where to continue.
public struct AppStoreServerAPIClient: Sendable {
    /// Waits between attempts; tests inject one that records the wait and returns at once.
    public typealias Sleeper = @Sendable (Duration) async throws -> Void

    /// Answers larger than this are refused: a page holds at most a few dozen signed items.
    static let maximumResponseLength = 4 * 1024 * 1024
    /// Error bodies larger than this are not read.
    static let maximumErrorBodyLength = 64 * 1024

    /// Who the client speaks for and where.
    public let configuration: AppStoreServerAPIConfiguration
    let verifier: SignedDataVerifier
    let httpClient: HTTPClient
    let logger: Logger
    let now: @Sendable () -> Date
    let sleep: Sleeper
    let tokens: AppStoreServerAPITokenCache

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - configuration: Key, app, base URL, timeouts and retries.
    ///   - verifier: Checks every signed item Apple returns; the same one that checks uploads.
    ///   - httpClient: The HTTP client to send with; the caller owns its lifecycle.
    ///   - logger: Where attempts (debug) and skipped items (warning) are logged.
    ///   - now: The clock that dates tokens and reads `Retry-After` times.
    ///   - sleep: Waits before a retry.
    public init(
        configuration: AppStoreServerAPIConfiguration,
        verifier: SignedDataVerifier,
        httpClient: HTTPClient,
        logger: Logger,
        now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping Sleeper = { try await Task.sleep(for: $0) }
    ) {
        self.configuration = configuration
        self.verifier = verifier
        self.httpClient = httpClient
        self.logger = logger
        self.now = now
        self.sleep = sleep
        self.tokens = AppStoreServerAPITokenCache(configuration: configuration)
    }
}
