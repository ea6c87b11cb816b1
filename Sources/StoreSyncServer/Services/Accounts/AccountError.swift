/// Why the account service refuses a sign-up or a sign-in. Nothing was changed.
enum AccountError: Error, Equatable {
    /// Another account has this email.
    case emailTaken
    /// The password breaks one of ``CredentialRules``; the detail says which.
    case weakPassword(String)
    /// The email is unknown or the password is wrong: one answer for both.
    case invalidCredentials
    /// Too many attempts for this email or from this address; the next may come after this
    /// many seconds.
    case rateLimited(retryAfterSeconds: Int)
    /// Every place for a password hash is taken (``PasswordHasher``); the attempt was not
    /// counted and may come again after this many seconds.
    case busy(retryAfterSeconds: Int)
}
