import PostgresLibPQ

extension PostgresConfiguration {
    /// The connection settings every StoreSync statement is written for, set by statements
    /// rather than libpq's `options` (which PgBouncer refuses): once per connection, or behind a
    /// transaction pooler at the start of every transaction.
    ///
    /// `statement_timeout` and `lock_timeout` (`DATABASE_STATEMENT_TIMEOUT_SECONDS`,
    /// `DATABASE_LOCK_TIMEOUT_SECONDS`): a statement stuck behind a lock or running away is
    /// cancelled, its transaction rolled back and the request answered 503 with `Retry-After`,
    /// instead of holding a pool connection — and every request queued behind it — forever.
    /// Behind a transaction pooler a statement outside a transaction gets the role's defaults:
    /// set the same timeouts there (`ALTER ROLE … SET statement_timeout`).
    ///
    /// `plan_cache_mode = force_generic_plan`: every statement the server prepares is an
    /// indexed lookup or a batch write whose best plan does not depend on its parameter values.
    /// PostgreSQL's default re-plans a prepared statement on every execution while its custom
    /// plans look cheaper than the generic one, and the batched entitlement lookup (an array of
    /// a few account ids, which a generic plan counts as ten) always looked so: planning costs
    /// more than running it. Behind a transaction pooler statements run unnamed, planned for
    /// their parameters each time, so that setting would only cost a statement: it is left out.
    ///
    /// - Parameter server: The server configuration that holds the timeouts.
    /// - Returns: This configuration with the settings added.
    func withServerSessionSettings(_ server: ServerConfiguration) -> PostgresConfiguration {
        var configuration = self
        if !usesTransactionPooler { configuration.sessionSettings["plan_cache_mode"] = "force_generic_plan" }
        configuration.sessionSettings["statement_timeout"] = "\(server.databaseStatementTimeoutSeconds)s"
        configuration.sessionSettings["lock_timeout"] = "\(server.databaseLockTimeoutSeconds)s"
        return configuration
    }
}
