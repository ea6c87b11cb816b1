internal import CLibPQ

/// A transaction's opening statements and its first statement in one round trip, and its last
/// statement and COMMIT in another.
///
/// libpq's pipeline mode writes several statements before reading any answer, and one Sync
/// after the last: PostgreSQL runs them in order and answers them together. Sent this way,
/// BEGIN no longer costs a round trip of its own (a wait for each of the two processes to be
/// scheduled, which every transaction paid before doing anything), and neither does preparing
/// the first statement the first time, nor COMMIT after a last statement its caller names.
/// A statement that fails makes PostgreSQL skip the rest of the pipeline: a COMMIT behind it
/// never runs, and the transaction stays open, aborted, for its ROLLBACK.
///
/// Only the statements of one ``LibPQConnection/send(_:endingTransaction:)`` are pipelined, so the connection is
/// in pipeline mode from that send to the matching receive and never between calls.
extension LibPQConnection {
    /// What a pipeline sends ahead of its statement.
    enum PipelineLead {
        /// A statement that opens the transaction (``openTransaction(with:closingWith:)``).
        case opening(PostgresQuery)
        /// The statement's preparation under `name`, filed in the cache once it succeeds.
        case preparation(PreparedStatementCache.Key, name: String)

        var sql: String {
            switch self {
            case .opening(let query): query.sql
            case .preparation(let key, _): key.sql
            }
        }
    }

    /// Sends `opening`, then `query`, prepared in the pipeline when it is new to this
    /// connection, then `closingStatement`, in one pipeline. Call with `lock` held.
    ///
    /// - Returns: What was sent ahead of `query`, for ``receivePipeline(endingWith:handle:)``.
    /// - Throws: ``PostgresError`` when libpq did not take it all (the connection is discarded).
    func sendPipeline(
        _ opening: [PostgresQuery], then query: PostgresQuery, closingWith closingStatement: PostgresQuery? = nil,
        handle: LibPQHandle
    ) throws -> [PipelineLead] {
        var leads = opening.map(PipelineLead.opening)
        var name: String?
        if query.binds.count > 0, preparesStatements {
            let key = PreparedStatementCache.Key(sql: query.sql, parameterTypes: query.binds.types)
            name = statements.name(for: key)
            if name == nil {
                let prepared = makePreparedName(handle: handle)
                leads.append(.preparation(key, name: prepared))
                name = prepared
            }
        }
        guard PQenterPipelineMode(handle.pointer) == 1,
            leads.allSatisfy({ dispatch($0, handle: handle) }),
            dispatch(query, preparedAs: name, handle: handle),
            closingStatement.map({ dispatch($0, preparedAs: nil, handle: handle) }) ?? true,
            PQpipelineSync(handle.pointer) == 1
        else {
            let error = PostgresError.client(
                handle.isBroken ? .connectionLost : .unexpectedResponse, handle.errorMessage, query: query.sql)
            // A pipeline half written leaves the connection mid-protocol: it cannot be used again.
            discardHandle()
            throw error
        }
        return leads
    }

    /// Reads the results of a pipeline ``sendPipeline(_:then:closingWith:handle:)`` wrote: each
    /// lead's, then `query`'s, then the closing statement's (recorded in ``closing``), then the
    /// Sync's, and leaves pipeline mode. Call with `lock` held.
    ///
    /// - Returns: `query`'s rows.
    /// - Throws: The first lead's error when one failed (PostgreSQL then skipped the rest,
    ///   `query` included); else `query`'s error, if any; else the closing statement's.
    func receivePipeline(endingWith query: PostgresQuery, handle: LibPQHandle) throws -> PostgresRows {
        let leads = leadsInFlight
        leadsInFlight = []
        let closingStatement = closingInFlight
        closingInFlight = nil
        var failure: (any Error)?
        for lead in leads {
            do {
                if try consumeInPipeline(PQgetResult(handle.pointer), handle: handle, sql: lead.sql) != nil,
                    case .preparation(let key, let name) = lead
                {
                    statements.insert(key, name: name)
                }
            } catch {
                failure = failure ?? error
            }
            readToEndOfStatement(handle)
        }
        var rows: PostgresRows?
        var closingRan = false
        do {
            rows = try consumeInPipeline(PQgetResult(handle.pointer), handle: handle, sql: query.sql)
        } catch {
            failure = failure ?? error
        }
        readToEndOfStatement(handle)
        if let closingStatement {
            do {
                // Left `unanswered` when the connection fails before its answer is read.
                if let ended = try consumeInPipeline(PQgetResult(handle.pointer), handle: handle, sql: closingStatement.sql) {
                    closing = .ran(commandTag: ended.commandTag)
                    closingRan = true
                } else if !handle.isBroken, Self.provesSkipped(failure) {
                    // PostgreSQL answered the statement with an error and skipped the rest. On a
                    // broken connection libpq marks it skipped itself, knowing nothing: the server
                    // may have run the statement and COMMIT and died before sending their answers.
                    closing = .skipped
                }
            } catch let error as PostgresError where !error.isConnectionError {
                closing = .failed
                failure = failure ?? error
            } catch {
                failure = failure ?? error
            }
            readToEndOfStatement(handle)
        }
        if let ended = endPipeline(handle, sql: query.sql), failure == nil, !closingRan {
            // A connection that fails after COMMIT (or ROLLBACK) was answered fails only
            // itself: the transaction's outcome is known, the rows are read, and the connection
            // is already discarded. PostgreSQL shutting down sends its FATAL just there.
            failure = ended
        }
        if let failure { throw failure }
        guard let rows else {
            throw PostgresError.client(.unexpectedResponse, "the statement was skipped without an error before it", query: query.sql)
        }
        return rows
    }

    /// Whether `failure`, the error ahead of a closing statement libpq reports as skipped,
    /// proves PostgreSQL skipped it. libpq marks everything after an error skipped without
    /// hearing from the server. PostgreSQL's own errors prove it: after one it skips to the
    /// Sync, after a FATAL of its own it exits. An error of class 08 does not: a pooler or proxy
    /// in between sends one when it loses its server connection (PgBouncer's 08P01), and the
    /// COMMIT it had already passed on may have run. Neither does libpq's own report.
    private static func provesSkipped(_ failure: (any Error)?) -> Bool {
        guard let error = failure as? PostgresError else { return false }
        return !error.code.raw.hasPrefix("08") && !error.code.raw.hasPrefix("SS")
    }

    private func dispatch(_ lead: PipelineLead, handle: LibPQHandle) -> Bool {
        switch lead {
        case .opening(let query):
            return dispatch(query, preparedAs: nil, handle: handle)
        case .preparation(let key, let name):
            return name.withCString { statementName in
                key.sql.withCString { sql in
                    key.parameterTypes.withUnsafeBufferPointer { types in
                        PQsendPrepare(handle.pointer, statementName, sql, Int32(types.count), types.baseAddress) == 1
                    }
                }
            }
        }
    }

    /// As ``consume(_:handle:sql:)``, but a statement PostgreSQL skipped because an earlier one
    /// in the pipeline failed gives `nil` instead of rows.
    private func consumeInPipeline(_ result: OpaquePointer?, handle: LibPQHandle, sql: String) throws -> PostgresRows? {
        if let result, PQresultStatus(result) == PGRES_PIPELINE_ABORTED {
            PQclear(result)
            return nil
        }
        return try consume(result, handle: handle, sql: sql)
    }

    /// Reads past the NULL that ends one statement's results in pipeline mode.
    private func readToEndOfStatement(_ handle: LibPQHandle) {
        while let extra = PQgetResult(handle.pointer) { PQclear(extra) }
    }

    /// Reads the Sync's result and leaves pipeline mode.
    ///
    /// - Returns: `nil` when the connection is ready for its next statement; otherwise the error
    ///   that says it is not, after discarding the connection, so that the transaction fails
    ///   instead of going on where its place in the protocol is unknown. An error PostgreSQL
    ///   sent in the Sync's place is that error: a FATAL of the server shutting down (57P01)
    ///   arrives there when it ends the session between statements, and is a connection
    ///   error like any other, not a protocol surprise.
    private func endPipeline(_ handle: LibPQHandle, sql: String) -> (any Error)? {
        var error: PostgresError?
        if !handle.isBroken, let sync = PQgetResult(handle.pointer) {
            defer { PQclear(sync) }
            switch PQresultStatus(sync) {
            case PGRES_PIPELINE_SYNC:
                if PQexitPipelineMode(handle.pointer) == 1 { return nil }
            case PGRES_FATAL_ERROR:
                error = failure(of: sync, handle: handle, sql: sql)
            default:
                break
            }
        }
        let ended = error ?? PostgresError.client(
            handle.isBroken ? .connectionLost : .unexpectedResponse, "the pipeline did not end as sent: \(handle.errorMessage)")
        discardHandle()
        return ended
    }
}
