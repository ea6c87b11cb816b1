public import Foundation

/// The optional body of `PUT /v1/admin/users/{externalUserId}`.
public struct ExternalUserRequest: Sendable, Hashable, Codable {
    /// The UUID the app already passes to StoreKit as `appAccountToken` for this user's
    /// purchases (an app whose backend tagged purchases before it used StoreSync): the account
    /// takes it, so those purchases belong to it (DESIGN §4). `nil`: the server makes one. An
    /// account's token never changes once bound.
    public var appAccountToken: UUID?

    /// Creates the body.
    ///
    /// - Parameter appAccountToken: The token the app already uses for this user, if any.
    public init(appAccountToken: UUID? = nil) {
        self.appAccountToken = appAccountToken
    }
}
