import Foundation
import PostgresLibPQ

/// SQL over `sessions`: one row per device, found by the SHA-256 of its bearer token.
struct SessionRepository: Sendable {
    /// Creates the device's session, or replaces its token when the device signs in again.
    func upsert(
        accountId: UUID, deviceId: UUID, tokenHash: Data, deviceName: String?, on connection: PostgresConnection
    ) async throws {
        try await connection.execute(
            """
            INSERT INTO sessions (account_id, device_id, token_hash, device_name)
            VALUES (\(accountId), \(deviceId), \(tokenHash), \(deviceName))
            ON CONFLICT (account_id, device_id) DO UPDATE
            SET token_hash = EXCLUDED.token_hash,
                device_name = COALESCE(EXCLUDED.device_name, sessions.device_name),
                last_seen_at = now()
            """)
    }

    /// The device a token hash belongs to, marking it seen (at most once a minute, so reads
    /// stay reads on the hot path).
    ///
    /// The mark commits asynchronously: `last_seen_at` is a hint for people, and waiting for
    /// its WAL to reach the disk made the first request of every device each minute wait for
    /// an fsync. A crash may lose the last fraction of a second of marks, nothing else.
    /// PostgreSQL reads `synchronous_commit` when the statement's own transaction commits, so
    /// setting it locally inside the statement covers exactly this statement. Call it outside
    /// any explicit transaction (as the authenticator does): inside one, the relaxed commit
    /// would cover that whole transaction.
    func device(tokenHash: Data, on connection: PostgresConnection) async throws -> DeviceIdentity? {
        let row = try await connection.query(
            """
            WITH found AS (
                SELECT account_id, device_id, last_seen_at FROM sessions WHERE token_hash = \(tokenHash)
            ), touched AS (
                UPDATE sessions SET last_seen_at = now()
                FROM found
                WHERE sessions.account_id = found.account_id AND sessions.device_id = found.device_id
                  AND found.last_seen_at < now() - interval '1 minute'
            ), relaxed AS (
                SELECT set_config('synchronous_commit', 'off', true)
            )
            SELECT account_id, device_id FROM found CROSS JOIN relaxed
            """
        ).first
        guard let row else { return nil }
        let (accountId, deviceId) = try row.decode((UUID, UUID).self)
        return DeviceIdentity(accountId: accountId, deviceId: deviceId)
    }

    /// Whether the device already has a session on this account (a re-sign-in keeps its id).
    func exists(accountId: UUID, deviceId: UUID, on connection: PostgresConnection) async throws -> Bool {
        !(try await connection.query(
            "SELECT 1 FROM sessions WHERE account_id = \(accountId) AND device_id = \(deviceId)"
        ).isEmpty)
    }

    func delete(accountId: UUID, deviceId: UUID, on connection: PostgresConnection) async throws {
        try await connection.execute(
            "DELETE FROM sessions WHERE account_id = \(accountId) AND device_id = \(deviceId)")
    }
}
