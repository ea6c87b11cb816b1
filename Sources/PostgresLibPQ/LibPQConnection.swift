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
    /// The statements that open a transaction (BEGIN, and its settings behind a pooler), held
    /// until the transaction's first statement so that both reach the server in one round trip;
    /// empty outside that moment. Touched only with `lock` held.
    var pendingOpening: [PostgresQuery] = []
    /// What a pipeline sent ahead of the outstanding statement, whose results
    /// ``receive(_:retryingStalePlan:)`` reads before that statement's. Touched only with `lock` held.
    var leadsInFlight: [PipelineLead] = []
    /// The statement that ends the open transaction (COMMIT, or ROLLBACK for a rollback-only
    /// one), for a last statement to carry (``send(_:endingTransaction:)``); `nil` outside a
    /// transaction and once sent. Touched only with `lock` held.
    var pendingClosing: PostgresQuery?
    /// The closing statement sent behind the outstanding statement, whose result
    /// ``receive(_:retryingStalePlan:)`` reads after that statement's. Touched only with `lock` held.
    var closingInFlight: PostgresQuery?
    /// What became of the closing statement a last statement carried; `nil` while none was
    /// sent. Touched only with `lock` held.
    var closing: TransactionClosing?

    init(configuration: PostgresConfiguration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        self.preparesStatements = !configuration.usesTransactionPooler
        self.statements = PreparedStatementCache(capacity: configuration.preparedStatementCacheSize)
    }

    /// Asks for a health check before the next statement, and forgets a transaction opening the
    /// previous borrower left unsent; called when the pool lends the connection.
    func markLeased() {
        lock.withLock {
            checkBeforeNextUse = true
            pendingOpening = []
            pendingClosing = nil
            closing = nil
        }
    }

    /// Asks for a health check before the next statement, as a lease does, keeping what the
    /// borrower set up (a blocking session calls it before each of its statements) — unless a
    /// transaction is open: the check rolls back a transaction a previous borrower left, and
    /// this one is the borrower's own (a connection lost inside it cannot be replaced anyway;
    /// its statement fails).
    func checkBeforeNextStatement() {
        lock.withLock {
            guard !(handle?.isInTransaction ?? false) else { return }
            checkBeforeNextUse = true
        }
    }

    /// Holds `statements`, which open a transaction, until the next statement and sends them
    /// with it (``send(_:endingTransaction:)``): the transaction's first statement does not wait a round trip for
    /// BEGIN's answer. A failure of theirs is that statement's failure.
    ///
    /// - Parameters:
    ///   - statements: BEGIN and the settings that go with it.
    ///   - closingStatement: What ends the transaction when its last statement carries the end
    ///     (``send(_:endingTransaction:)``): COMMIT, or ROLLBACK.
    func openTransaction(with statements: [PostgresQuery], closingWith closingStatement: PostgresQuery) {
        lock.withLock {
            pendingOpening = statements
            pendingClosing = closingStatement
            closing = nil
        }
    }

    /// What became of the closing statement a last statement carried, if one did; the
    /// transaction is then no longer this connection's to end. Forgets it.
    func takeClosing() -> TransactionClosing? {
        lock.withLock {
            defer {
                closing = nil
                pendingClosing = nil
            }
            return closing
        }
    }

    /// The opening statements not sent yet, which are then no longer pending: for a caller that
    /// sends them on their own.
    func takePendingOpening() -> [PostgresQuery] {
        lock.withLock {
            defer { pendingOpening = [] }
            return pendingOpening
        }
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
        leadsInFlight = []
        closingInFlight = nil
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
