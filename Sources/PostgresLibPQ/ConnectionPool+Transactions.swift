internal import Logging

extension ConnectionPool {
    /// Runs `body` inside BEGIN … COMMIT on one connection; ROLLBACK when `body` throws.
    ///
    /// A transaction that failed inside `body` without `body` throwing (an error caught and
    /// ignored) is not reported as committed: PostgreSQL answers its COMMIT with ROLLBACK, and
    /// this method throws ``PostgresError/Code/inFailedSQLTransaction``.
    ///
    /// - Parameters:
    ///   - isolation: The isolation level.
    ///   - actorIsolation: The caller's actor, inherited so `body` runs where it was written.
    ///   - body: The transaction's work.
    /// - Returns: What `body` returns, once committed.
    /// - Throws: What `body` throws (after ROLLBACK), or ``PostgresError`` from BEGIN or COMMIT.
    @discardableResult
    public func withTransaction<R: Sendable>(
        isolation: IsolationLevel = .readCommitted,
        actorIsolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> R
    ) async throws -> R {
        do {
            return try await attemptTransaction(isolation: isolation, body)
        } catch let failure as TransactionAttemptFailure {
            throw failure.underlying
        }
    }

    /// Runs a transaction, retrying it on serialization failure and deadlock.
    ///
    /// Also retried: a connection that died before COMMIT was sent (nothing was committed).
    /// Not retried: a connection lost during COMMIT, whose outcome is unknown. Between
    /// attempts it waits a few milliseconds, doubling, with jitter. `body` must be safe to run
    /// again: everything it did in a failed attempt was rolled back.
    ///
    /// - Parameters:
    ///   - isolation: The isolation level; `.serializable` is the usual reason to retry.
    ///   - maxAttempts: How many times to run the transaction at most (at least 1).
    ///   - actorIsolation: The caller's actor, inherited so `body` runs where it was written.
    ///   - body: The transaction's work, re-runnable.
    /// - Returns: What `body` returns in the attempt that committed.
    /// - Throws: The last attempt's error, or the first error that is not retryable.
    @discardableResult
    public func withRetryingTransaction<R: Sendable>(
        isolation: IsolationLevel = .readCommitted,
        maxAttempts: Int = 5,
        actorIsolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> R
    ) async throws -> R {
        var attempt = 1
        while true {
            do {
                return try await attemptTransaction(isolation: isolation, body)
            } catch let failure as TransactionAttemptFailure {
                guard attempt < maxAttempts, failure.isRetryable else { throw failure.underlying }
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
        actorIsolation: isolated (any Actor)? = #isolation,
        _ body: (PostgresConnection) async throws -> R
    ) async throws -> R {
        do {
            return try await withConnection { connection in
                do {
                    try await connection.execute(isolation.beginStatement)
                } catch {
                    throw TransactionAttemptFailure(underlying: error, commitSent: false)
                }
                let result: R
                do {
                    result = try await body(connection)
                } catch {
                    // A dead connection or a cancelled task may skip this; the next lease's
                    // health check rolls back whatever is left open.
                    _ = try? await connection.execute("ROLLBACK")
                    throw TransactionAttemptFailure(underlying: error, commitSent: false)
                }
                let commit: PostgresRows
                do {
                    commit = try await connection.query("COMMIT")
                } catch {
                    throw TransactionAttemptFailure(underlying: error, commitSent: true)
                }
                guard commit.commandTag != "ROLLBACK" else {
                    let error = PostgresError.client(
                        .inFailedSQLTransaction, "a statement in the transaction failed, so COMMIT rolled it back"
                    )
                    throw TransactionAttemptFailure(underlying: error, commitSent: true)
                }
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
        case .poolTimeout, .poolShutDown:
            return false
        default:
            return error.isConnectionError && !commitSent
        }
    }
}
