internal import Logging

extension ConnectionPool {
    /// Runs `body` inside BEGIN … COMMIT on one connection; ROLLBACK when `body` throws.
    ///
    /// A transaction that failed inside `body` without `body` throwing (an error caught and
    /// ignored) is not reported as committed: PostgreSQL answers its COMMIT with ROLLBACK, and
    /// this method throws ``PostgresError/Code/inFailedSQLTransaction``.
    ///
    /// A `rollbackOnly` transaction ends with ROLLBACK even when `body` returns: `body` sees
    /// its own writes, the caller gets its answer, and nothing is kept. That answers "what
    /// would happen" (a dry run) with exactly the statements of the real run. It reports a
    /// statement that failed inside it the same way a committing transaction does.
    ///
    /// BEGIN travels with the first statement `body` runs, in one round trip (libpq's pipeline
    /// mode), so a failure of BEGIN (a lost connection) is that statement's. COMMIT travels with
    /// the last, in one round trip, when `body` runs it by
    /// ``PostgresConnection/queryEndingTransaction(_:logger:)``.
    ///
    /// - Parameters:
    ///   - isolation: The isolation level.
    ///   - rollbackOnly: Whether the transaction ends with ROLLBACK whatever `body` does.
    ///   - actorIsolation: The caller's actor, inherited so `body` runs where it was written.
    ///   - body: The transaction's work.
    /// - Returns: What `body` returns, once committed (or rolled back, when `rollbackOnly`).
    /// - Throws: What `body` throws (after ROLLBACK), or ``PostgresError`` from COMMIT or
    ///   ROLLBACK.
    @discardableResult
    public func withTransaction<R: Sendable>(
        isolation: IsolationLevel = .readCommitted,
        rollbackOnly: Bool = false,
        actorIsolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> R
    ) async throws -> R {
        do {
            return try await attemptTransaction(isolation: isolation, rollbackOnly: rollbackOnly, body)
        } catch let failure as TransactionAttemptFailure {
            throw failure.underlying
        }
    }

    /// Runs a transaction, retrying it on serialization failure and deadlock.
    ///
    /// Also retried, once: a connection that died before COMMIT was sent (nothing was
    /// committed), as the pool's connection may have died while it was idle and a fresh one is
    /// the cure. A second loss means the database, or the pooler in front of it, is away: the
    /// caller hears so at once, where more attempts would each wait out a pooler that holds
    /// queries (PgBouncer's `query_wait_timeout`) and add their load to a recovering database.
    /// Not retried: a connection lost once COMMIT was sent, whose outcome is unknown, also when
    /// a pooler in between reports the loss as an error ahead of COMMIT's answer: PostgreSQL
    /// may have run the COMMIT it had received. Between attempts it waits a few milliseconds,
    /// doubling, with jitter. `body` must be safe to run again: everything it did in a failed
    /// attempt was rolled back.
    ///
    /// - Parameters:
    ///   - isolation: The isolation level; `.serializable` is the usual reason to retry.
    ///   - rollbackOnly: Whether the transaction ends with ROLLBACK whatever `body` does (see
    ///     ``withTransaction(isolation:rollbackOnly:actorIsolation:_:)``).
    ///   - maxAttempts: How many times to run the transaction at most (at least 1).
    ///   - actorIsolation: The caller's actor, inherited so `body` runs where it was written.
    ///   - body: The transaction's work, re-runnable.
    /// - Returns: What `body` returns in the attempt that committed (or rolled back, when
    ///   `rollbackOnly`).
    /// - Throws: The last attempt's error, or the first error that is not retryable.
    @discardableResult
    public func withRetryingTransaction<R: Sendable>(
        isolation: IsolationLevel = .readCommitted,
        rollbackOnly: Bool = false,
        maxAttempts: Int = 5,
        actorIsolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> R
    ) async throws -> R {
        var attempt = 1
        var lostAConnection = false
        while true {
            do {
                return try await attemptTransaction(isolation: isolation, rollbackOnly: rollbackOnly, body)
            } catch let failure as TransactionAttemptFailure {
                guard attempt < maxAttempts, failure.isRetryable, !(lostAConnection && failure.isConnectionLoss) else {
                    throw failure.underlying
                }
                lostAConnection = lostAConnection || failure.isConnectionLoss
                logger.debug("retrying transaction", metadata: [
                    "db.attempt": "\(attempt)", "db.error_code": "\((failure.underlying as? PostgresError)?.code.raw ?? "")",
                ])
                try await Task.sleep(for: Self.backoff(afterAttempt: attempt))
                attempt += 1
            }
        }
    }

    /// 5 ms, 10 ms, 20 ms … capped at 200 ms, each scaled by a random 50–100 % so that the
    /// transactions that collided do not collide again in lockstep.
    static func backoff(afterAttempt attempt: Int) -> Duration {
        let base = min(200.0, 5.0 * Double(1 << min(attempt - 1, 10)))
        return .microseconds(Int64(base * 1000 * Double.random(in: 0.5...1.0)))
    }

    private func attemptTransaction<R: Sendable>(
        isolation: IsolationLevel,
        rollbackOnly: Bool,
        actorIsolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> R
    ) async throws -> R {
        do {
            return try await withConnection { connection in
                // BEGIN goes out with the body's first statement, in one round trip; its failure
                // is that statement's, and ends the attempt as the body's failures do.
                connection.core.openTransaction(
                    with: [isolation.beginStatement] + [configuration.transactionLocalSettings].compactMap { $0 },
                    closingWith: rollbackOnly ? "ROLLBACK" : "COMMIT")
                let result: R
                do {
                    result = try await body(connection)
                } catch {
                    throw await Self.failure(error, on: connection, rollbackOnly: rollbackOnly)
                }
                try await Self.end(on: connection, rollbackOnly: rollbackOnly)
                return result
            }
        } catch let failure as TransactionAttemptFailure {
            throw failure
        } catch {
            // Checkout failed: nothing was sent.
            throw TransactionAttemptFailure(underlying: error, commitSent: false)
        }
    }
}

extension ConnectionPool {
    /// The failure of an attempt whose body threw `error`, once the transaction is over: rolled
    /// back when it is still open; whether COMMIT was sent decides whether it may be retried.
    private static func failure(_ error: any Error, on connection: PostgresConnection, rollbackOnly: Bool) async
        -> TransactionAttemptFailure
    {
        switch connection.core.takeClosing() {
        case nil, .skipped:
            // Still open. A dead connection or a cancelled task may skip this; the next lease's
            // health check rolls back whatever is left open.
            _ = try? await connection.rollBack()
            return TransactionAttemptFailure(underlying: error, commitSent: false)
        case .failed:
            // COMMIT itself failed: PostgreSQL ended the transaction and kept nothing.
            return TransactionAttemptFailure(underlying: error, commitSent: false)
        case .unanswered:
            // Lost with COMMIT on its way: it may have committed.
            return TransactionAttemptFailure(underlying: error, commitSent: !rollbackOnly)
        case .ran:
            // Ended before `body` threw; what it did is kept.
            return TransactionAttemptFailure(underlying: error, commitSent: !rollbackOnly)
        }
    }

    /// Ends a transaction whose body returned: with COMMIT (ROLLBACK when `rollbackOnly`),
    /// unless its last statement carried the end already, whose outcome is then checked.
    private static func end(on connection: PostgresConnection, rollbackOnly: Bool) async throws {
        switch connection.core.takeClosing() {
        case nil:
            if rollbackOnly { try await rollBack(on: connection) } else { try await commit(on: connection) }
        case .ran(let commandTag):
            guard rollbackOnly || commandTag != "ROLLBACK" else { throw Self.rolledBackAtCommit }
        case .skipped:
            // The last statement failed and `body` caught its error: the transaction is aborted.
            _ = try? await connection.rollBack()
            throw TransactionAttemptFailure(
                underlying: PostgresError.client(
                    .inFailedSQLTransaction, "the transaction's last statement failed, so it was rolled back"),
                commitSent: false)
        case .failed:
            throw TransactionAttemptFailure(
                underlying: PostgresError.client(.inFailedSQLTransaction, "COMMIT failed, so nothing was kept"),
                commitSent: false)
        case .unanswered:
            throw TransactionAttemptFailure(
                underlying: PostgresError.client(.connectionLost, "the connection was lost with COMMIT on its way"),
                commitSent: true)
        }
    }

    /// COMMIT answered ROLLBACK: a statement in the transaction had failed.
    private static var rolledBackAtCommit: TransactionAttemptFailure {
        TransactionAttemptFailure(
            underlying: PostgresError.client(
                .inFailedSQLTransaction, "a statement in the transaction failed, so COMMIT rolled it back"),
            commitSent: true)
    }

    /// Ends a transaction with COMMIT.
    private static func commit(on connection: PostgresConnection) async throws {
        let commit: PostgresRows
        do {
            commit = try await connection.query("COMMIT")
        } catch {
            throw TransactionAttemptFailure(underlying: error, commitSent: true)
        }
        guard commit.commandTag != "ROLLBACK" else { throw rolledBackAtCommit }
    }

    /// Ends a rollback-only transaction: nothing it did is kept, whatever happens here.
    private static func rollBack(on connection: PostgresConnection) async throws {
        let statementFailed: Bool
        do {
            statementFailed = try await connection.rollBack()
        } catch {
            throw TransactionAttemptFailure(underlying: error, commitSent: false)
        }
        guard !statementFailed else {
            let error = PostgresError.client(
                .inFailedSQLTransaction, "a statement in the rollback-only transaction failed"
            )
            throw TransactionAttemptFailure(underlying: error, commitSent: false)
        }
    }
}

/// Why one attempt at a transaction failed, and whether COMMIT had been sent.
struct TransactionAttemptFailure: Error {
    let underlying: any Error
    let commitSent: Bool

    var isRetryable: Bool {
        guard let error = underlying as? PostgresError else { return false }
        switch error.code {
        case .serializationFailure, .deadlockDetected:
            // Reported at any statement or at COMMIT: either way nothing was committed.
            return true
        default:
            return isConnectionLoss
        }
    }

    /// Whether the attempt's connection was lost (or refused) before COMMIT was sent.
    var isConnectionLoss: Bool {
        guard let error = underlying as? PostgresError else { return false }
        switch error.code {
        case .poolTimeout, .poolShutDown:
            return false
        default:
            return error.isConnectionError && !commitSent
        }
    }
}
