/// A lent connection used directly on the pool thread it runs on: each call blocks that thread
/// instead of suspending a task.
///
/// For work that runs statement after statement without anything in between that needs Swift
/// Concurrency: each `await` on ``PostgresConnection`` hops to the pool's thread and back
/// (two thread wake-ups), a session stays there. ``send(_:)`` and ``receive()`` split a statement
/// in two, so the thread can do other work (decode the previous answer, say) while PostgreSQL
/// runs it. Only one statement is outstanding at a time.
///
/// Valid only inside the closure of ``PostgresConnection/withBlockingSession(_:)`` and on its
/// thread; not `Sendable` for that reason.
public final class PostgresBlockingSession {
    private let core: LibPQConnection
    /// The statement sent and not yet received.
    private var outstanding: PostgresQuery?

    init(core: LibPQConnection) {
        self.core = core
    }

    /// Sends a statement and returns without waiting for its result.
    ///
    /// - Parameter query: The statement; interpolated values are bound as parameters, and a
    ///   statement with parameters is prepared once per connection, as ``PostgresConnection/query(_:logger:)`` does.
    /// - Throws: ``PostgresError`` when the statement could not be sent (the connection failed),
    ///   or with ``PostgresError/Code/unexpectedResponse`` when the last one was not received yet.
    public func send(_ query: PostgresQuery) throws {
        guard outstanding == nil else {
            throw PostgresError.client(.unexpectedResponse, "the previous statement's result was not received", query: query.sql)
        }
        // A session may hold its connection across waits (a batching loader keeps one idle
        // between bursts of requests), so every statement gets the check a lease gets: a
        // connection the server closed meanwhile is replaced instead of failing the statement
        // (one `poll`).
        core.checkBeforeNextStatement()
        try core.send(query)
        outstanding = query
    }

    /// Waits for the statement sent last and returns its rows.
    ///
    /// - Returns: The rows, and the affected-row count.
    /// - Throws: ``PostgresError`` from the server or the connection, or with
    ///   ``PostgresError/Code/unexpectedResponse`` when nothing was sent.
    public func receive() throws -> PostgresRows {
        guard let query = outstanding else {
            throw PostgresError.client(.unexpectedResponse, "no statement was sent")
        }
        outstanding = nil
        return try core.receive(query)
    }

    /// Runs a statement and returns its rows: ``send(_:)`` then ``receive()``.
    ///
    /// - Parameter query: The statement.
    /// - Returns: The rows, and the affected-row count.
    /// - Throws: ``PostgresError``.
    public func query(_ query: PostgresQuery) throws -> PostgresRows {
        try send(query)
        return try receive()
    }
}

extension PostgresConnection {
    /// Runs `body` on the pool thread this connection's statements run on, with blocking access
    /// to the connection.
    ///
    /// `body` must not block for anything but this connection, and must not keep the session.
    ///
    /// - Parameter body: Work with the session.
    /// - Returns: What `body` returns.
    /// - Throws: ``PostgresError/Code/poolShutDown`` when the pool has shut down, or what `body` throws.
    public func withBlockingSession<R: Sendable>(_ body: @escaping @Sendable (PostgresBlockingSession) throws -> R)
        async throws -> R
    {
        let core = self.core
        return try await onConnectionThread {
            let session = PostgresBlockingSession(core: core)
            defer { session.abandon() }
            return try body(session)
        }
    }
}

extension PostgresBlockingSession {
    /// Reads and drops the result of a statement `body` sent but never received, so the
    /// connection goes back to the pool ready for its next statement.
    fileprivate func abandon() {
        guard let query = outstanding else { return }
        outstanding = nil
        _ = try? core.receive(query)
    }
}
