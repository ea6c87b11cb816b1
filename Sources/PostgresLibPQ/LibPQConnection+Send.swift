internal import CLibPQ
internal import Logging

extension LibPQConnection {
    /// Sends a statement without waiting for its result; ``receive(_:retryingStalePlan:)``
    /// collects it. Blocking only while the statement is written (and, the first time, while it
    /// is prepared).
    ///
    /// A statement with parameters is prepared once per connection and then run by name,
    /// unless the connection goes through a transaction pooler: there the next statement may
    /// reach another server session, which never saw the preparation, so each one runs
    /// unnamed (parse, bind and execute in one message sequence).
    ///
    /// The first statement of a transaction carries the statements that open it
    /// (``openTransaction(with:closingWith:)``) in one pipeline, ahead of it; its last, when
    /// `endingTransaction`, the statement that ends it, behind it.
    ///
    /// Between the two, the caller may do other work while PostgreSQL runs the statement. Only
    /// one statement is outstanding at a time: send the next after receiving this one.
    ///
    /// - Throws: ``PostgresError`` when libpq did not take the statement, or when
    ///   `endingTransaction` and no transaction is open to end.
    func send(_ query: PostgresQuery, endingTransaction: Bool = false) throws {
        try withHealthyHandle { handle in
            let opening = pendingOpening
            var closingStatement: PostgresQuery?
            if endingTransaction {
                guard let pending = pendingClosing else {
                    throw PostgresError.client(
                        .unexpectedResponse, "no transaction is open for this statement to end", query: query.sql)
                }
                closingStatement = pending
            }
            pendingOpening = []
            guard opening.isEmpty, closingStatement == nil else {
                if let closingStatement {
                    // Counted as sent before anything is written: a connection lost from here on
                    // may have delivered it.
                    pendingClosing = nil
                    closing = .unanswered
                    closingInFlight = closingStatement
                }
                leadsInFlight = try sendPipeline(opening, then: query, closingWith: closingStatement, handle: handle)
                return
            }
            let name = try preparedName(of: query, handle: handle)
            guard dispatch(query, preparedAs: name, handle: handle) else {
                let error = PostgresError.client(
                    handle.isBroken ? .connectionLost : .unexpectedResponse, handle.errorMessage, query: query.sql)
                if handle.isBroken { discardHandle() }
                throw error
            }
        }
    }

    /// Waits for the result of `query`, the statement ``send(_:endingTransaction:)`` sent last, and returns its rows.
    ///
    /// A schema change can invalidate a prepared statement's plan ("cached plan must not change
    /// result type"), and `DISCARD ALL` drops the statement. Outside a transaction nothing was
    /// aborted, so the statement is prepared afresh and run once more; inside one, the caller's
    /// retry of the transaction does it.
    func receive(_ query: PostgresQuery, retryingStalePlan: Bool = true) throws -> PostgresRows {
        do {
            return try withSentHandle { handle in
                if !leadsInFlight.isEmpty || closingInFlight != nil {
                    return try receivePipeline(endingWith: query, handle: handle)
                }
                let result = PQgetResult(handle.pointer)
                // A statement gives one result, then NULL; anything after the first is read and freed
                // so the connection is ready for the next statement.
                defer { while let extra = PQgetResult(handle.pointer) { PQclear(extra) } }
                return try consume(result, handle: handle, sql: query.sql)
            }
        } catch let error as PostgresError
            where preparesStatements && query.binds.count > 0
                && (error.code == .featureNotSupported || error.code == .invalidSQLStatementName)
        {
            let retry = try withSentHandle { handle -> Bool in
                _ = statements.remove(PreparedStatementCache.Key(sql: query.sql, parameterTypes: query.binds.types))
                return retryingStalePlan && !handle.isInTransaction && !handle.isBroken
            }
            guard retry else { throw error }
            logger.debug("re-preparing a statement whose plan went stale", metadata: ["db.statement": "\(query.sql)"])
            try send(query)
            return try receive(query, retryingStalePlan: false)
        }
    }

    /// The name `query` runs under, preparing it first if this connection has not; `nil` for a
    /// statement that runs unnamed (no parameters, or behind a transaction pooler).
    private func preparedName(of query: PostgresQuery, handle: LibPQHandle) throws -> String? {
        guard query.binds.count > 0, preparesStatements else { return nil }
        return try preparedName(for: PreparedStatementCache.Key(sql: query.sql, parameterTypes: query.binds.types), handle: handle)
    }

    /// Writes one statement, by name when it is prepared, else unnamed with its text; in a
    /// pipeline or alone, the messages are the same.
    ///
    /// - Returns: Whether libpq took it.
    func dispatch(_ query: PostgresQuery, preparedAs name: String?, handle: LibPQHandle) -> Bool {
        let sent: Int32
        if let name {
            sent = name.withCString { statementName in
                query.binds.withParameterPointers { count, values, lengths, formats in
                    PQsendQueryPrepared(handle.pointer, statementName, count, values, lengths, formats, 1)
                }
            }
        } else if query.binds.count == 0 {
            sent = query.sql.withCString { sql in
                PQsendQueryParams(handle.pointer, sql, 0, nil, nil, nil, nil, 1)
            }
        } else {
            sent = query.sql.withCString { sql in
                query.binds.types.withUnsafeBufferPointer { types in
                    query.binds.withParameterPointers { count, values, lengths, formats in
                        PQsendQueryParams(handle.pointer, sql, count, types.baseAddress, values, lengths, formats, 1)
                    }
                }
            }
        }
        return sent == 1
    }
}
