import Foundation
import PostgresLibPQ

/// SQL over `login_throttle`: the recent attempts of each limited key, shared by every instance.
struct LoginThrottleRepository: Sendable {
    /// The key's recorded attempts, its row locked until the transaction ends (created empty
    /// when the key is new), so concurrent attempts on any instance are counted one at a time.
    func lockedAttempts(scope: String, key: Data, now: Date, on connection: PostgresConnection) async throws -> [Date] {
        // The no-op update takes the row lock of an existing row and returns it.
        let row = try await connection.query(
            """
            INSERT INTO login_throttle (scope, key_sha256, attempts, expires_at)
            VALUES (\(scope), \(key), \([Date]()), \(now))
            ON CONFLICT (scope, key_sha256) DO UPDATE SET scope = EXCLUDED.scope
            RETURNING attempts
            """
        ).first
        guard let row else { return [] }
        return try row.decode([Date].self)
    }

    /// Replaces the key's attempts; the row goes once the newest leaves the window.
    func store(attempts: [Date], expiresAt: Date, scope: String, key: Data, on connection: PostgresConnection) async throws {
        try await connection.execute(
            """
            UPDATE login_throttle SET attempts = \(attempts), expires_at = \(expiresAt)
            WHERE scope = \(scope) AND key_sha256 = \(key)
            """)
    }

    /// Forgets a key's attempts (a successful sign-in forgets the email's failures).
    func delete(scope: String, key: Data, on connection: PostgresConnection) async throws {
        try await connection.execute("DELETE FROM login_throttle WHERE scope = \(scope) AND key_sha256 = \(key)")
    }

    /// Deletes up to `limit` rows whose attempts all left the window. Rows another transaction
    /// holds are skipped, so pruning never waits and never deadlocks with a reservation.
    func deleteExpired(before now: Date, limit: Int, on connection: PostgresConnection) async throws {
        try await connection.execute(
            """
            DELETE FROM login_throttle WHERE (scope, key_sha256) IN (
                SELECT scope, key_sha256 FROM login_throttle WHERE expires_at < \(now)
                ORDER BY expires_at LIMIT \(limit) FOR UPDATE SKIP LOCKED)
            """)
    }
}
