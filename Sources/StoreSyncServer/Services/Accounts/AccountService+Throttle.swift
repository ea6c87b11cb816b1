import Foundation
import PostgresLibPQ

extension AccountService {
    /// The account a sign-in's password opens, once the attempt is admitted and counted.
    ///
    /// In order: fields no account can have are refused (400, nothing counted); a full
    /// password queue answers 503 before anything is counted; the attempt is reserved in the
    /// shared throttle (429 when a window is full) — before the hash, so concurrent guesses
    /// never outnumber the limit; only then is the password checked. A success forgets the
    /// email's failures.
    ///
    /// - Parameters:
    ///   - email: The normalised email.
    ///   - password: The password as sent.
    ///   - clientAddress: The client's address, when known.
    /// - Returns: The account.
    /// - Throws: ``RequestError``, ``AccountError`` (`busy`, `rateLimited`, `invalidCredentials`)
    ///   or a database error.
    func authenticate(email: String, password: String, clientAddress: String?) async throws -> AccountRecord {
        try CredentialRules.checkSignInSizes(email: email, password: password)
        try hasher.ensureRoom()
        try await throttle.reserveSignIn(email: email, address: clientAddress, now: now())
        let account = try await pool.withConnection { try await AccountRepository().find(normalizedEmail: email, on: $0) }
        guard try await hasher.verify(password, against: account?.passwordHash), let account else {
            throw AccountError.invalidCredentials
        }
        try await throttle.forgetFailures(email: email)
        return account
    }

    /// The bcrypt hash of a new account's password, once the sign-up is admitted: a full
    /// password queue answers 503 and a full sign-up window 429, both before any hashing.
    ///
    /// - Parameters:
    ///   - password: The validated password.
    ///   - clientAddress: The client's address, when known.
    /// - Returns: The hash to store.
    /// - Throws: ``AccountError`` (`busy`, `rateLimited`) or a database error.
    func admittedPasswordHash(_ password: String, clientAddress: String?) async throws -> String {
        try hasher.ensureRoom()
        try await throttle.reserveSignUp(address: clientAddress, now: now())
        return try await hasher.hash(password)
    }
}
