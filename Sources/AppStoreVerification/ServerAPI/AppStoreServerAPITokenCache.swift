import Foundation
import NIOConcurrencyHelpers

/// Hands out the current token and signs a new one only when it is about to expire, so
/// concurrent calls share one token instead of signing one each.
final class AppStoreServerAPITokenCache: Sendable {
    private let configuration: AppStoreServerAPIConfiguration
    private let current = NIOLockedValueBox<AppStoreServerAPIToken?>(nil)

    init(configuration: AppStoreServerAPIConfiguration) {
        self.configuration = configuration
    }

    /// A token valid for at least the renewal margin after `now`.
    ///
    /// Signing happens under the lock: it takes microseconds, and callers racing at expiry
    /// then get the one new token rather than several.
    ///
    /// - Parameter now: The time of the request.
    /// - Returns: The token to send.
    /// - Throws: What signing throws (not expected for a valid P-256 key).
    func token(now: Date) throws -> AppStoreServerAPIToken {
        let margin = TimeInterval(configuration.tokenRenewalMargin.components.seconds)
        return try current.withLockedValue { cached in
            // A clock set back (tests, NTP) must not keep a token whose `iat` lies in the future.
            if let token = cached, token.expiresAt.timeIntervalSince(now) > margin,
                token.expiresAt.timeIntervalSince(now) <= TimeInterval(configuration.tokenLifetime.components.seconds)
            {
                return token
            }
            let token = try AppStoreServerAPIToken(configuration: configuration, now: now)
            cached = token
            return token
        }
    }
}
