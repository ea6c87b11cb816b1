/// What became of a transaction's closing statement (COMMIT, or ROLLBACK) sent behind its last
/// statement in one pipeline (``PostgresConnection/queryEndingTransaction(_:logger:)``).
enum TransactionClosing: Sendable, Equatable {
    /// Sent, and no answer read: the connection failed on the way, so the transaction may have
    /// committed.
    case unanswered
    /// Skipped by PostgreSQL because the statement before it failed: the transaction is still
    /// open, aborted, and needs its ROLLBACK.
    case skipped
    /// Ran, answering this command tag: COMMIT, or ROLLBACK when PostgreSQL rolled back a
    /// transaction a statement had failed in.
    case ran(commandTag: String)
    /// Failed (a deferred constraint, a serialization failure): the transaction is over and
    /// nothing of it was kept.
    case failed
}
