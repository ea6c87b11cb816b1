import Crypto
import Foundation
import PostgresLibPQ

/// Limits sign-in and sign-up attempts in sliding windows kept in PostgreSQL, so every
/// instance behind a load balancer counts the same attempts and a restart forgets none.
///
/// Sign-in counts every attempt per client address and the failures per email; sign-up counts
/// every attempt per client address. An attempt is reserved before any password is hashed: the
/// key's row is locked, the window decided and the attempt written in one transaction, so a
/// burst of concurrent guesses — on one instance or many — gets no more than the limit. The
/// process keeps nothing per key; the table holds at most one row per key seen in the last
/// window (each reservation deletes some expired rows).
struct LoginThrottle: Sendable {
    let pool: ConnectionPool
    let limits: LoginLimits
    private let repository = LoginThrottleRepository()

    /// Expired rows each reservation deletes: more than the two rows a sign-in may add.
    private static let pruneBatch = 50

    init(pool: ConnectionPool, limits: LoginLimits) {
        self.pool = pool
        self.limits = limits
    }

    /// Reserves a sign-in attempt: one from the address, then one failure for the email (a
    /// successful sign-in gives it back with ``forgetFailures(email:)``).
    ///
    /// - Throws: ``AccountError/rateLimited(retryAfterSeconds:)`` when either window is full
    ///   (a refused attempt is not counted), or a database error.
    func reserveSignIn(email: String, address: String?, now: Date) async throws {
        if let address {
            try await reserve(.signInAddress, key: Self.network(of: address), limit: limits.attemptsPerAddress, now: now)
        }
        try await reserve(.signInEmail, key: email, limit: limits.failuresPerEmail, now: now)
    }

    /// Reserves a sign-up attempt from the address.
    ///
    /// - Throws: ``AccountError/rateLimited(retryAfterSeconds:)`` when the window is full, or a
    ///   database error.
    func reserveSignUp(address: String?, now: Date) async throws {
        guard let address else { return }
        try await reserve(.signUpAddress, key: Self.network(of: address), limit: limits.signUpsPerAddress, now: now)
    }

    /// What the per-address windows count by: the client's network (``IPAddress/clientNetwork``),
    /// an IPv6 client's /64 rather than each of its addresses.
    static func network(of address: String) -> String {
        IPAddress(address)?.clientNetwork ?? address
    }

    /// Forgets the email's failures after a successful sign-in.
    func forgetFailures(email: String) async throws {
        try await pool.withConnection { connection in
            try await repository.delete(scope: Scope.signInEmail.rawValue, key: Scope.signInEmail.digest(email), on: connection)
        }
    }

    private enum Scope: String {
        case signInEmail = "sign-in-email"
        case signInAddress = "sign-in-address"
        case signUpAddress = "sign-up-address"

        /// The stored key: a fixed 32 bytes however long the input, and never an email in clear.
        func digest(_ key: String) -> Data {
            Data(SHA256.hash(data: Data(key.utf8)))
        }
    }

    private func reserve(_ scope: Scope, key: String, limit: Int, now: Date) async throws {
        let window = ThrottleWindow(limit: limit, seconds: limits.windowSeconds)
        let digest = scope.digest(key)
        let decision = try await pool.withTransaction { connection in
            let recorded = try await repository.lockedAttempts(scope: scope.rawValue, key: digest, now: now, on: connection)
            let decision = window.decide(recorded: recorded, now: now)
            if case .granted(let kept) = decision {
                try await repository.store(
                    attempts: kept, expiresAt: window.expiry(of: kept), scope: scope.rawValue, key: digest, on: connection)
            }
            try await repository.deleteExpired(before: now, limit: Self.pruneBatch, on: connection)
            return decision
        }
        if case .refused(let seconds) = decision { throw AccountError.rateLimited(retryAfterSeconds: seconds) }
    }
}
