public import Logging
internal import NIOPosix

/// A connection lent by a ``ConnectionPool`` for the duration of one closure.
///
/// Every call hops to a thread the pool owns, runs libpq there, and hops back: libpq blocks,
/// and blocking the cooperative pool would stall every task in the process. Do not let the
/// connection escape the closure that received it.
public final class PostgresConnection: Sendable {
    let core: LibPQConnection
    let threadPool: NIOThreadPool
    let logger: Logger
    /// Stable for the connection's life; shows up in logs as `db.connection_id`.
    let id: Int

    init(id: Int, configuration: PostgresConfiguration, threadPool: NIOThreadPool, logger: Logger) {
        self.id = id
        self.threadPool = threadPool
        var logger = logger
        logger[metadataKey: "db.connection_id"] = "\(id)"
        self.logger = logger
        self.core = LibPQConnection(configuration: configuration, logger: logger)
    }

    /// Runs a statement and returns its rows.
    ///
    /// - Parameters:
    ///   - query: The statement; interpolated values are bound as parameters.
    ///   - logger: Where to log the statement at trace level; the pool's logger when nil.
    /// - Returns: The rows, and the affected-row count.
    /// - Throws: ``PostgresError`` from the server, or a connection error
    ///   (``PostgresError/isConnectionError``) when the connection failed or died.
    public func query(_ query: PostgresQuery, logger: Logger? = nil) async throws -> PostgresRows {
        let logger = logger ?? self.logger
        logger.trace("query", metadata: ["db.statement": "\(query.sql)", "db.parameters": "\(query.binds.count)"])
        let core = self.core
        let rows = try await onConnectionThread { try core.execute(query) }
        logger.trace("query done", metadata: ["db.rows": "\(rows.affectedRows)"])
        return rows
    }

    /// Runs a transaction's last statement and ends the transaction in the same round trip:
    /// COMMIT (ROLLBACK in a rollback-only transaction) goes to PostgreSQL right behind it, in
    /// one pipeline, instead of after its answer.
    ///
    /// Call it inside ``ConnectionPool/withTransaction(isolation:rollbackOnly:actorIsolation:_:)``
    /// or ``ConnectionPool/withRetryingTransaction(isolation:rollbackOnly:maxAttempts:actorIsolation:_:)``,
    /// for the body's last statement: the transaction ends with it, so the body must run no
    /// statement after it and must not throw once it returned (what it did is committed). When
    /// the statement fails, COMMIT is skipped and the transaction rolls back as for any failed
    /// statement.
    ///
    /// - Parameters:
    ///   - query: The statement; interpolated values are bound as parameters.
    ///   - logger: Where to log the statement at trace level; the pool's logger when nil.
    /// - Returns: The statement's rows, once the transaction has ended.
    /// - Throws: ``PostgresError``: the statement's error, or COMMIT's (the transaction then kept
    ///   nothing), or a connection error; also when no transaction is open to end.
    public func queryEndingTransaction(_ query: PostgresQuery, logger: Logger? = nil) async throws -> PostgresRows {
        let logger = logger ?? self.logger
        logger.trace("query ending the transaction", metadata: [
            "db.statement": "\(query.sql)", "db.parameters": "\(query.binds.count)",
        ])
        let core = self.core
        let rows = try await onConnectionThread { try core.executeEndingTransaction(query) }
        logger.trace("query done", metadata: ["db.rows": "\(rows.affectedRows)"])
        return rows
    }

    /// Runs a statement and returns how many rows it affected.
    ///
    /// - Parameters:
    ///   - query: The statement; interpolated values are bound as parameters.
    ///   - logger: Where to log the statement at trace level; the pool's logger when nil.
    /// - Returns: The affected-row count (INSERT, UPDATE, DELETE, MERGE; rows for SELECT).
    /// - Throws: ``PostgresError``.
    @discardableResult
    public func execute(_ query: PostgresQuery, logger: Logger? = nil) async throws -> Int {
        try await self.query(query, logger: logger).affectedRows
    }

    /// Runs a script of several `;`-separated statements, without parameters.
    ///
    /// Uses the simple-query protocol, so it suits migrations and DDL. Without an explicit
    /// transaction around it, each statement commits on its own.
    ///
    /// - Parameter script: The SQL text.
    /// - Throws: ``PostgresError`` for the first statement that fails; later ones do not run.
    public func execute(script: String) async throws {
        logger.trace("script", metadata: ["db.script_bytes": "\(script.utf8.count)"])
        let core = self.core
        try await onConnectionThread { try core.executeScript(script) }
    }

    /// Ends the open transaction with ROLLBACK.
    ///
    /// - Returns: Whether a statement in it had failed (PostgreSQL had aborted it already).
    func rollBack() async throws -> Bool {
        let core = self.core
        return try await onConnectionThread { try core.rollBack() }
    }

    /// Runs blocking libpq work on the pool's threads.
    func onConnectionThread<R: Sendable>(_ work: @escaping @Sendable () throws -> R) async throws -> R {
        do {
            return try await threadPool.runIfActive(work)
        } catch let error as NIOThreadPoolError.ThreadPoolInactive {
            _ = error
            throw PostgresError.client(.poolShutDown, "the connection pool has shut down")
        }
    }
}
