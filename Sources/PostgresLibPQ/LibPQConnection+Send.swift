internal import CLibPQ
internal import Logging

extension LibPQConnection {
    /// Sends a statement without waiting for its result; ``receive(_:)`` collects it. Blocking
    /// only while the statement is written (and, the first time, while it is prepared).
    ///
    /// A statement with parameters is prepared once per connection and then run by name,
    /// unless the connection goes through a transaction pooler: there the next statement may
    /// reach another server session, which never saw the preparation, so each one runs
    /// unnamed (parse, bind and execute in one message sequence).
    ///
    /// Between the two, the caller may do other work while PostgreSQL runs the statement. Only
    /// one statement is outstanding at a time: send the next after receiving this one.
    func send(_ query: PostgresQuery) throws {
        try withHealthyHandle { handle in
            let sent: Int32
            if query.binds.count == 0 {
                sent = query.sql.withCString { sql in
                    PQsendQueryParams(handle.pointer, sql, 0, nil, nil, nil, nil, 1)
                }
            } else if !preparesStatements {
                sent = query.sql.withCString { sql in
                    query.binds.types.withUnsafeBufferPointer { types in
                        query.binds.withParameterPointers { count, values, lengths, formats in
                            PQsendQueryParams(handle.pointer, sql, count, types.baseAddress, values, lengths, formats, 1)
                        }
                    }
                }
            } else {
                let key = PreparedStatementCache.Key(sql: query.sql, parameterTypes: query.binds.types)
                let name = try preparedName(for: key, handle: handle)
                sent = name.withCString { statementName in
                    query.binds.withParameterPointers { count, values, lengths, formats in
                        PQsendQueryPrepared(handle.pointer, statementName, count, values, lengths, formats, 1)
                    }
                }
            }
            guard sent == 1 else {
                let error = PostgresError.client(
                    handle.isBroken ? .connectionLost : .unexpectedResponse, handle.errorMessage, query: query.sql)
                if handle.isBroken { discardHandle() }
                throw error
            }
        }
    }

    /// Waits for the result of `query`, the statement ``send(_:)`` sent last, and returns its rows.
    ///
    /// A schema change can invalidate a prepared statement's plan ("cached plan must not change
    /// result type"), and `DISCARD ALL` drops the statement. Outside a transaction nothing was
    /// aborted, so the statement is prepared afresh and run once more; inside one, the caller's
    /// retry of the transaction does it.
    func receive(_ query: PostgresQuery, retryingStalePlan: Bool = true) throws -> PostgresRows {
        do {
            return try withSentHandle { handle in
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
}
