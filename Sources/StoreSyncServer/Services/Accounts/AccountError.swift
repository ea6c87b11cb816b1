/// Why the account service refuses a request about an account or a session. Nothing was changed.
enum AccountError: Error, Equatable {
    /// Another account has this email.
    case emailTaken
    /// The password in `field` breaks one of ``CredentialRules``; the detail says which.
    case weakPassword(String, field: String = "password")
    /// The email is unknown or the password is wrong: one answer for both.
    case invalidCredentials
    /// The password re-checked before a deletion or a password change is wrong.
    case wrongPassword
    /// The account signs in through the app's backend and has no password to change.
    case noPassword
    /// The account was deleted while the request was under way (its session was valid when it
    /// arrived).
    case accountDeleted
    /// The appAccountToken asked for is another account's, or this account has another one
    /// (a token never changes once bound); the detail says which.
    case appAccountTokenConflict(String)
    /// No such device among the account's sessions, or no such account.
    case notFound(String)
    /// Too many attempts for this email or from this address; the next may come after this
    /// many seconds.
    case rateLimited(retryAfterSeconds: Int)
    /// Every place for a password hash is taken (``PasswordHasher``); the attempt was not
    /// counted and may come again after this many seconds.
    case busy(retryAfterSeconds: Int)
}
