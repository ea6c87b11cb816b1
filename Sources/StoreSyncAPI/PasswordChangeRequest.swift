/// The body of `PUT /v1/accounts/current/password`: the current password, re-checked, and the
/// new one. Every other session of the account ends.
///
/// Its descriptions never show either password.
public struct PasswordChangeRequest: Sendable, Hashable, Codable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The account's current password.
    public var password: String
    /// The password from now on; the rules of sign-up apply.
    public var newPassword: String

    /// Creates a password change.
    ///
    /// - Parameters:
    ///   - password: The current password.
    ///   - newPassword: The new password.
    public init(password: String, newPassword: String) {
        self.password = password
        self.newPassword = newPassword
    }

    /// The request with both passwords redacted.
    public var description: String { "PasswordChangeRequest(password: <redacted>, newPassword: <redacted>)" }

    /// The request with both passwords redacted.
    public var debugDescription: String { description }
}
