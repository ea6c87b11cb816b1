/// What stands between the server and PostgreSQL on `DATABASE_URL` (and `DATABASE_READ_URL`).
public enum DatabasePoolMode: String, Sendable, Hashable, CaseIterable {
    /// PostgreSQL itself, or a pooler that gives each client a session for as long as it stays
    /// connected (PgBouncer's `pool_mode = session`): prepared statements, session settings
    /// and `LISTEN` work.
    case session
    /// A pooler that lends a server session per transaction (PgBouncer's
    /// `pool_mode = transaction`): nothing may rely on the session, so statements run unnamed,
    /// settings are made per transaction, and `LISTEN` needs `DATABASE_LISTEN_URL`.
    case transaction
}
