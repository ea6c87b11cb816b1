internal import CLibPQ
public import Foundation
public import Logging
import NIOConcurrencyHelpers
public import ServiceLifecycle

/// What a ``PostgresListener`` reports.
public enum PostgresListenerEvent: Sendable, Hashable {
    /// Listening (again): notifications sent while it was not listening are lost, so anything
    /// cached on their promise must be dropped now.
    case listening
    /// The connection is gone; until ``listening`` comes again no notification arrives.
    case disconnected
    /// A `NOTIFY channel, 'payload'`.
    case notification(channel: String, payload: String)
}

/// Holds one connection that `LISTEN`s on some channels and reports every notification,
/// reconnecting when the connection dies. A `Service`: it runs until graceful shutdown.
///
/// libpq blocks, so the connection lives on a thread of its own, never on Swift's
/// cooperative pool; it wakes at least every ``pollInterval`` to notice a stop.
public final class PostgresListener: Service, Sendable {
    /// The events, in order. Read by one consumer.
    public let events: AsyncStream<PostgresListenerEvent>

    private let continuation: AsyncStream<PostgresListenerEvent>.Continuation
    private let configuration: PostgresConfiguration
    private let channels: [String]
    private let logger: Logger
    private let stopRequested = NIOLockedValueBox(false)
    /// How long the thread waits on the socket before checking for a stop.
    private let pollInterval: Int32 = 250

    /// Creates a listener; nothing connects until ``run()``.
    ///
    /// - Parameters:
    ///   - configuration: Where PostgreSQL is.
    ///   - channels: Channel names: lower-case letters, digits and underscores only.
    ///   - logger: Where connection trouble is reported.
    /// - Throws: ``PostgresError`` when a channel name is not a plain identifier, or when the
    ///   configuration is a transaction pooler (``PostgresConfiguration/usesTransactionPooler``),
    ///   which would hand the listening session to other clients between statements.
    public init(configuration: PostgresConfiguration, channels: [String], logger: Logger) throws {
        for channel in channels where !Self.isPlainIdentifier(channel) {
            throw PostgresError.client(.unexpectedResponse, "channel \(channel) is not a plain identifier")
        }
        guard !configuration.usesTransactionPooler else {
            throw PostgresError.client(.featureNotSupported, "LISTEN needs a direct connection, not a transaction pooler")
        }
        self.configuration = configuration
        self.channels = channels
        self.logger = logger
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Listens until graceful shutdown or cancellation.
    public func run() async throws {
        let finished = NIOLockedValueBox<CheckedContinuation<Void, Never>?>(nil)
        let thread = Thread { [self] in
            listenUntilStopped()
            finished.withLockedValue { $0?.resume(); $0 = nil }
        }
        thread.name = "storesync.postgres-listener"
        await withTaskCancellationOrGracefulShutdownHandler {
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                finished.withLockedValue { $0 = waiter }
                thread.start()
            }
        } onCancelOrGracefulShutdown: { [self] in
            stopRequested.withLockedValue { $0 = true }
        }
        continuation.finish()
    }

    private var isStopping: Bool { stopRequested.withLockedValue { $0 } }

    /// The thread's loop: connect, listen, report; after a failure wait a little and again.
    private func listenUntilStopped() {
        var backoff = 0.25
        // Warned when the connection is lost, not at every retry while it stays lost.
        var failing = false
        while !isStopping {
            do {
                let handle = try LibPQHandle.connect(configuration)
                try listen(on: handle)
                continuation.yield(.listening)
                if failing { logger.notice("change listener reconnected to PostgreSQL") }
                failing = false
                backoff = 0.25
                try relay(from: handle)
            } catch {
                logger.log(
                    level: failing ? .debug : .warning, "change listener lost PostgreSQL; retrying",
                    metadata: ["error": "\(error)"])
                failing = true
            }
            continuation.yield(.disconnected)
            let deadline = Date().addingTimeInterval(backoff)
            while !isStopping && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            backoff = min(backoff * 2, 5)
        }
    }

    private func listen(on handle: LibPQHandle) throws {
        for channel in channels {
            guard let result = PQexec(handle.pointer, "LISTEN \(channel)") else {
                throw PostgresError.client(.connectionLost, handle.errorMessage)
            }
            defer { PQclear(result) }
            guard PQresultStatus(result) == PGRES_COMMAND_OK else {
                throw PostgresError.client(.unexpectedResponse, handle.errorMessage)
            }
        }
    }

    /// Waits on the socket and forwards notifications until the connection breaks or a stop.
    private func relay(from handle: LibPQHandle) throws {
        let socket = PQsocket(handle.pointer)
        while !isStopping {
            guard CLibPQ_waitForInput(socket, pollInterval) == 1 else { continue }
            guard PQconsumeInput(handle.pointer) == 1, !handle.isBroken else {
                throw PostgresError.client(.connectionLost, handle.errorMessage)
            }
            while let notification = PQnotifies(handle.pointer) {
                let channel = String(cString: notification.pointee.relname)
                let payload = String(cString: notification.pointee.extra)
                PQfreemem(notification)
                continuation.yield(.notification(channel: channel, payload: payload))
            }
        }
    }

    private static func isPlainIdentifier(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 63
            && name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
    }
}
