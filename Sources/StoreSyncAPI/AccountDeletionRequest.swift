/// The body of `DELETE /v1/accounts/current`: the password, re-checked, for an account that has
/// one; an account bound to the app backend's user id has none and sends no body or `{}`.
///
/// Its descriptions never show the password.
public struct AccountDeletionRequest: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The account's current password.
    public var password: String?

    /// Creates a deletion request.
    ///
    /// - Parameter password: The account's current password; `nil` for an account without one.
    public init(password: String?) {
        self.password = password
    }

    /// The request with the password redacted.
    public var description: String { "AccountDeletionRequest(password: \(password == nil ? "nil" : "<redacted>"))" }

    /// The request with the password redacted.
    public var debugDescription: String { description }
}
