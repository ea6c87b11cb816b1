import Foundation
import PostgresLibPQ

/// SQL over `sessions`: one row per device, found by the SHA-256 of its bearer token.
///
/// Times come from the server's clock (`now`), not PostgreSQL's: whether a session went unused
/// for the idle limit is decided against the same clock that stamps its use.
struct SessionRepository: Sendable {
    /// Creates the device's session, or replaces its token when the device signs in again.
    func upsert(
        accountId: UUID, deviceId: UUID, tokenHash: Data, deviceName: String?, now: Date, on connection: PostgresConnection
    ) async throws {
        try await connection.execute(
            """
            INSERT INTO sessions (account_id, device_id, token_hash, device_name, created_at, last_seen_at)
            VALUES (\(accountId), \(deviceId), \(tokenHash), \(deviceName), \(now), \(now))
            ON CONFLICT (account_id, device_id) DO UPDATE
            SET token_hash = EXCLUDED.token_hash,
                device_name = COALESCE(EXCLUDED.device_name, sessions.device_name),
                last_seen_at = EXCLUDED.last_seen_at
            """)
    }

    /// The device a token hash belongs to while its session is in use, marking it seen (at most
    /// once a minute, so reads stay reads on the hot path). A session last seen at or before
    /// `idleSince` is over: it is deleted and nothing is answered.
    ///
    /// The mark commits asynchronously: `last_seen_at` is a hint for people, and waiting for
    /// its WAL to reach the disk made the first request of every device each minute wait for
    /// an fsync. A crash may lose the last fraction of a second of marks (or of the deletion of
    /// a session that was over anyway), nothing else. PostgreSQL reads `synchronous_commit` when
    /// the statement's own transaction commits, so setting it locally inside the statement
    /// covers exactly this statement. Call it outside any explicit transaction (as the
    /// authenticator does): inside one, the relaxed commit would cover that whole transaction.
    func device(tokenHash: Data, now: Date, idleSince: Date, on connection: PostgresConnection) async throws
        -> DeviceIdentity?
    {
        let row = try await connection.query(
            """
            WITH found AS (
                SELECT account_id, device_id, last_seen_at FROM sessions WHERE token_hash = \(tokenHash)
            ), touched AS (
                UPDATE sessions SET last_seen_at = \(now)
                FROM found
                WHERE sessions.account_id = found.account_id AND sessions.device_id = found.device_id
                  AND found.last_seen_at > \(idleSince) AND found.last_seen_at < \(now) - interval '1 minute'
            ), ended AS (
                DELETE FROM sessions USING found
                WHERE sessions.account_id = found.account_id AND sessions.device_id = found.device_id
                  AND found.last_seen_at <= \(idleSince)
            ), relaxed AS (
                SELECT set_config('synchronous_commit', 'off', true)
            )
            SELECT account_id, device_id FROM found CROSS JOIN relaxed WHERE found.last_seen_at > \(idleSince)
            """
        ).first
        guard let row else { return nil }
        let (accountId, deviceId) = try row.decode((UUID, UUID).self)
        return DeviceIdentity(accountId: accountId, deviceId: deviceId)
    }

    /// The token hash of the device's session on this account, locked until the database
    /// transaction ends, so the sign-in replacing it knows which token stopped working; `nil`
    /// when the device has no session here (a re-sign-in keeps its id only when it has one).
    func lockedTokenHash(accountId: UUID, deviceId: UUID, on connection: PostgresConnection) async throws -> Data? {
        try await connection.query(
            "SELECT token_hash FROM sessions WHERE account_id = \(accountId) AND device_id = \(deviceId) FOR UPDATE"
        ).first.map { try $0.decode(Data.self) }
    }

    /// The account's sessions still in use (last seen after `idleSince`), oldest first; never a token.
    func sessions(of accountId: UUID, idleSince: Date, on connection: PostgresConnection) async throws
        -> [(deviceId: UUID, deviceName: String?, createdAt: Date, lastUsedAt: Date)]
    {
        try await connection.query(
            """
            SELECT device_id, device_name, created_at, last_seen_at FROM sessions
            WHERE account_id = \(accountId) AND last_seen_at > \(idleSince)
            ORDER BY created_at, device_id
            """
        ).map { row in
            let (deviceId, name, created, lastUsed) = try row.decode((UUID, String?, Date, Date).self)
            return (deviceId, name, created, lastUsed)
        }
    }

    /// Signs one device of the account out.
    ///
    /// - Returns: The hash of the token that stopped working; `nil` when the account has no
    ///   such device.
    @discardableResult
    func delete(accountId: UUID, deviceId: UUID, on connection: PostgresConnection) async throws -> Data? {
        try await connection.query(
            "DELETE FROM sessions WHERE account_id = \(accountId) AND device_id = \(deviceId) RETURNING token_hash"
        ).first.map { try $0.decode(Data.self) }
    }

    /// Signs every device of the account out but the one holding `keeping` (the token of the
    /// request changing the password; `nil`: every device). By token, not by device: a device
    /// whose token was replaced meanwhile (signed in again, by whoever knew the old password)
    /// is signed out with the others.
    ///
    /// - Returns: The hashes of the tokens that stopped working.
    func deleteAll(of accountId: UUID, exceptToken keeping: Data?, on connection: PostgresConnection) async throws
        -> [Data]
    {
        try await connection.query(
            """
            DELETE FROM sessions
            WHERE account_id = \(accountId) AND token_hash IS DISTINCT FROM \(keeping)
            RETURNING token_hash
            """
        ).map { try $0.decode(Data.self) }
    }
}
