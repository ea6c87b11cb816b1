public import Foundation

/// The answer of `PUT /v1/admin/users/{externalUserId}`: the StoreSync account bound to the app
/// backend's own user id (bring your own identity; the account has no password).
public struct ExternalUser: Sendable, Hashable, Codable {
    /// The StoreSync account.
    public var accountId: UUID
    /// The UUID the app passes to StoreKit as `appAccountToken` for this user's purchases.
    public var appAccountToken: UUID
    /// The app backend's user id the account is bound to.
    public var externalUserId: String

    /// Creates the answer.
    ///
    /// - Parameters:
    ///   - accountId: The account.
    ///   - appAccountToken: The account's StoreKit `appAccountToken`.
    ///   - externalUserId: The backend's user id.
    public init(accountId: UUID, appAccountToken: UUID, externalUserId: String) {
        self.accountId = accountId
        self.appAccountToken = appAccountToken
        self.externalUserId = externalUserId
    }
}
