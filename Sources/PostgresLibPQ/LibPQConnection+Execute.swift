internal import CLibPQ
internal import Logging

extension LibPQConnection {
    /// Runs one statement and returns its rows. Blocking.
    ///
    /// Statements with parameters go through the per-connection prepared-statement cache;
    /// statements without run unnamed, so one-off SQL (DDL, BEGIN) does not fill the cache.
    func execute(_ query: PostgresQuery) throws -> PostgresRows {
        try send(query)
        return try receive(query)
    }

    /// Runs `query` as the open transaction's last statement, with the statement that ends the
    /// transaction behind it in the same pipeline. Blocking.
    func executeEndingTransaction(_ query: PostgresQuery) throws -> PostgresRows {
        try send(query, endingTransaction: true)
        return try receive(query)
    }

    /// Rolls the open transaction back. Blocking.
    ///
    /// A transaction whose opening was never sent (no statement ran in it) has nothing on the
    /// server to roll back: its opening is dropped without a round trip.
    ///
    /// - Returns: Whether a statement in it had failed (PostgreSQL had aborted it already).
    func rollBack() throws -> Bool {
        guard takePendingOpening().isEmpty else { return false }
        let statementFailed = try withSentHandle(\.isInFailedTransaction)
        _ = try execute("ROLLBACK")
        return statementFailed
    }

    /// Runs several `;`-separated statements with the simple-query protocol. Blocking.
    ///
    /// A transaction opened and not yet sent is opened first, each statement on its own: the
    /// simple-query protocol has no pipeline to carry them.
    func executeScript(_ script: String) throws {
        for statement in takePendingOpening() { _ = try execute(statement) }
        try withHealthyHandle { handle in
            let result = script.withCString { PQexec(handle.pointer, $0) }
            _ = try consume(result, handle: handle, sql: script)
        }
    }

    func preparedName(for key: PreparedStatementCache.Key, handle: LibPQHandle) throws -> String {
        if let name = statements.name(for: key) { return name }
        let name = makePreparedName(handle: handle)
        let result = name.withCString { statementName in
            key.sql.withCString { sql in
                key.parameterTypes.withUnsafeBufferPointer { types in
                    PQprepare(handle.pointer, statementName, sql, Int32(types.count), types.baseAddress)
                }
            }
        }
        _ = try consume(result, handle: handle, sql: key.sql)
        statements.insert(key, name: name)
        return name
    }

    /// A name for a statement about to be prepared, making room in the cache first.
    func makePreparedName(handle: LibPQHandle) -> String {
        if let evicted = statements.evictIfFull() {
            // Best effort: a failure here (an aborted transaction) only leaves the plan until the session ends.
            if let result = PQexec(handle.pointer, "DEALLOCATE \(evicted)") { PQclear(result) }
        }
        return statements.makeName()
    }

    /// Turns a `PGresult` into rows or an error, freeing it either way.
    func consume(_ result: OpaquePointer?, handle: LibPQHandle, sql: String) throws -> PostgresRows {
        guard let result else {
            let error = PostgresError.client(handle.isBroken ? .connectionLost : .unexpectedResponse, handle.errorMessage, query: sql)
            if handle.isBroken { discardHandle() }
            throw error
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_TUPLES_OK, PGRES_COMMAND_OK, PGRES_EMPTY_QUERY, PGRES_SINGLE_TUPLE:
            return LibPQResult.rows(from: result)
        case PGRES_FATAL_ERROR, PGRES_NONFATAL_ERROR:
            throw failure(of: result, handle: handle, sql: sql)
        default:
            // COPY and other streaming states: the connection is mid-protocol and unusable.
            discardHandle()
            throw PostgresError.client(.unexpectedResponse, "unsupported result status (COPY is not supported)", query: sql)
        }
    }
}

extension LibPQConnection {
    /// The error an error result reports; does not free it.
    ///
    /// No SQLSTATE means libpq wrote the error, not the server: it lost the connection ("server
    /// closed the connection unexpectedly") even where PQstatus still says OK, as after an
    /// immediate shutdown. Either way this connection cannot be trusted again, and is discarded.
    func failure(of result: OpaquePointer, handle: LibPQHandle, sql: String) -> PostgresError {
        var error = LibPQResult.error(from: result, query: sql)
        if handle.isBroken || error.code == .unexpectedResponse {
            error.code = .connectionLost
            discardHandle()
        }
        return error
    }
}

extension PostgresBindings {
    /// Lends the parameters to C as libpq wants them, valid only inside `body`.
    func withParameterPointers<R>(
        _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> R
    ) -> R {
        let formats = [Int32](repeating: 1, count: count)
        // An empty value still needs a non-NULL pointer (NULL would mean SQL NULL), so the
        // buffer always has at least one byte.
        let storage = bytes.isEmpty ? [0] : bytes
        return storage.withUnsafeBytes { raw in
            let base = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
            let values: [UnsafePointer<CChar>?] = (0..<count).map { index in
                lengths[index] < 0 ? nil : base + offsets[index]
            }
            return values.withUnsafeBufferPointer { valuePointers in
                lengths.withUnsafeBufferPointer { lengthPointers in
                    formats.withUnsafeBufferPointer { formatPointers in
                        body(Int32(count), valuePointers.baseAddress, lengthPointers.baseAddress, formatPointers.baseAddress)
                    }
                }
            }
        }
    }
}
