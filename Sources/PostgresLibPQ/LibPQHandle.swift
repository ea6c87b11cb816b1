internal import CLibPQ
internal import Foundation
internal import Logging

/// One `PGconn`, finished exactly once when this object goes away.
///
/// Not Sendable on purpose: only ``LibPQConnection`` holds it, under its lock.
final class LibPQHandle {
    let pointer: OpaquePointer

    private init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        PQfinish(pointer)
    }

    /// Opens a connection, blocking until it is ready or failed.
    ///
    /// - Throws: ``PostgresError`` with ``PostgresError/Code/connectionFailed`` and libpq's reason.
    static func connect(_ configuration: PostgresConfiguration) throws -> LibPQHandle {
        let parameters = configuration.connectionParameters
        let pointer = withCStringArray(parameters.map(\.0)) { keywords in
            withCStringArray(parameters.map(\.1)) { values in
                PQconnectdbParams(keywords, values, 0)
            }
        }
        guard let pointer else {
            throw PostgresError.client(.connectionFailed, "libpq could not allocate a connection")
        }
        // Owned from here on, so PQfinish runs also when the connect failed.
        let handle = LibPQHandle(pointer: pointer)
        guard PQstatus(pointer) == CONNECTION_OK else {
            throw PostgresError.client(.connectionFailed, handle.errorMessage)
        }
        PQsetNoticeProcessor(pointer, CLibPQ_discardNotice, nil)
        // Behind a transaction pooler a setting made here would stay with whichever server
        // session ran it; the pool sets them inside each transaction instead.
        if !configuration.usesTransactionPooler { try handle.apply(configuration.sessionSettings) }
        return handle
    }

    /// Sets each run-time parameter for the session; the names and values travel as
    /// parameters, never spliced into SQL.
    private func apply(_ settings: [String: String]) throws {
        for (name, value) in settings.sorted(by: { $0.key < $1.key }) {
            let result = withCStringArray([name, value]) { values in
                PQexecParams(pointer, "SELECT set_config($1, $2, false)", 2, nil, values, nil, nil, 0)
            }
            defer { PQclear(result) }
            guard let result, PQresultStatus(result) == PGRES_TUPLES_OK else {
                let reason = result.flatMap { PQresultErrorMessage($0) }.map { String(cString: $0) } ?? errorMessage
                throw PostgresError.client(
                    .connectionFailed,
                    "could not set \(name) = \(value): \(reason.trimmingCharacters(in: .whitespacesAndNewlines))")
            }
        }
    }

    /// libpq's last error message for this connection, trimmed.
    var errorMessage: String {
        guard let message = PQerrorMessage(pointer) else { return "unknown libpq error" }
        return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    var isBroken: Bool { PQstatus(pointer) != CONNECTION_OK }

    var isInTransaction: Bool { PQtransactionStatus(pointer) != PQTRANS_IDLE }

    /// Whether the open transaction is aborted: a statement in it failed.
    var isInFailedTransaction: Bool { PQtransactionStatus(pointer) == PQTRANS_INERROR }

    /// Whether the connection is still usable, reading whatever the server sent while it sat idle.
    ///
    /// A connection the server terminated has its final error and EOF waiting on the socket;
    /// reading them flips libpq's status to bad. A transaction left open by the previous user
    /// is rolled back here.
    func isHealthyAndIdle(logger: Logger) -> Bool {
        guard !isBroken else { return false }
        // Each read consumes one chunk; EOF shows up as readable again after the last message.
        var reads = 0
        while reads < 8, CLibPQ_socketHasPendingInput(PQsocket(pointer)) != 0 {
            reads += 1
            guard PQconsumeInput(pointer) == 1, !isBroken else { return false }
            drainNotifications()
        }
        switch PQtransactionStatus(pointer) {
        case PQTRANS_IDLE:
            return true
        case PQTRANS_INTRANS, PQTRANS_INERROR:
            logger.debug("rolling back a transaction the previous user left open")
            guard let result = PQexec(pointer, "ROLLBACK") else { return false }
            defer { PQclear(result) }
            return PQresultStatus(result) == PGRES_COMMAND_OK && !isInTransaction
        default:
            return false
        }
    }

    /// Frees notifications nobody listens for on a pooled connection (a listener owns its own).
    private func drainNotifications() {
        while let notification = PQnotifies(pointer) {
            PQfreemem(notification)
        }
    }
}
