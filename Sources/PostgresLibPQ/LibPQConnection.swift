internal import CLibPQ
internal import Logging
internal import NIOConcurrencyHelpers

/// The owner of one `PGconn`, and the only code that talks to it.
///
/// Every method blocks on the network and must run on a thread the pool owns, never on the
/// cooperative pool. The handle is opened lazily, checked before the first statement of each
/// lease, and replaced when the server closed it, so callers see a fresh connection instead of
/// a dead one.
final class LibPQConnection: @unchecked Sendable {  // all mutable state is behind `lock`
    private let lock = NIOLock()
    private let configuration: PostgresConfiguration
    let logger: Logger
    /// Whether statements with parameters are prepared once and run by name; behind a
    /// transaction pooler each runs unnamed, parsed anew every time.
    let preparesStatements: Bool
    private var handle: LibPQHandle?
    /// The prepared statements of the open handle; touched only with `lock` held (inside ``withHealthyHandle(_:)``).
    var statements: PreparedStatementCache
    private var checkBeforeNextUse = true

    init(configuration: PostgresConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.preparesStatements = !configuration.usesTransactionPooler
        self.statements = PreparedStatementCache(capacity: configuration.preparedStatementCacheSize)
    }

    /// Asks for a health check before the next statement; called when the pool lends the connection.
    func markLeased() {
        lock.withLock { checkBeforeNextUse = true }
    }

    /// Closes the PGconn, if open. Blocking: it says goodbye to the server.
    func close() {
        lock.withLock {
            handle = nil
            statements.removeAll()
        }
    }

    /// Runs `body` with exclusive use of a healthy, open PGconn.
    func withHealthyHandle<R>(_ body: (LibPQHandle) throws -> R) throws -> R {
        try lock.withLock {
            try body(try healthyHandle())
        }
    }

    /// Runs `body` with the open PGconn a statement was sent on, without a health check or a
    /// reconnect: its result can only come from that connection.
    ///
    /// - Throws: ``PostgresError/Code/connectionLost`` when the handle has been dropped since.
    func withSentHandle<R>(_ body: (LibPQHandle) throws -> R) throws -> R {
        try lock.withLock {
            guard let handle else {
                throw PostgresError.client(.connectionLost, "the connection was closed before its result arrived")
            }
            return try body(handle)
        }
    }

    /// Drops the handle after the server closed it; the next use reconnects. Call with `lock` held.
    func discardHandle() {
        handle = nil
        statements.removeAll()
    }

    private func healthyHandle() throws -> LibPQHandle {
        if let handle, checkBeforeNextUse, !handle.isHealthyAndIdle(logger: logger) {
            logger.debug("replacing a connection the server closed", metadata: ["db.database": "\(configuration.database)"])
            discardHandle()
        }
        checkBeforeNextUse = false
        if let handle { return handle }
        let opened = try LibPQHandle.connect(configuration)
        logger.trace("opened a connection", metadata: ["db.database": "\(configuration.database)"])
        handle = opened
        return opened
    }
}
