import Foundation
public import PostgresLibPQ
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A Unix-socket proxy in front of a test cluster that ends a session at a chosen message from
/// the server: right after it, with PostgreSQL's FATAL of a shutdown, with the error a pooler in
/// between sends when it loses its server, or with nothing; or in its place, the message lost.
///
/// A real shutdown chooses the moment itself (whichever message the backend was about to send
/// when the signal came); the proxy picks it, so a test can put the FATAL exactly where a
/// shutdown once put it, e.g. between COMMIT's answer and the pipeline's Sync. The backend goes
/// on with whatever the client had already sent it, as it does behind a pooler that lost it.
public final class SessionEndingProxy: Sendable {
    /// Decides, for each message the server sends (its type byte and body), whether the session
    /// ends there.
    public typealias Trigger = @Sendable (_ type: UInt8, _ body: [UInt8]) -> Bool

    /// What the client reads last.
    public enum Ending: Sendable {
        /// FATAL 57P01, `terminating connection due to administrator command`: what a backend
        /// sends as `pg_ctl stop -m fast` or `pg_terminate_backend` ends it. Realistic only where
        /// the backend had nothing left to run, for it exits after sending it.
        case adminShutdown
        /// FATAL 08P01, what PgBouncer sends its client when its server connection broke.
        case poolerLostServer
        /// The connection closes with no message.
        case drop
        /// The connection closes in place of the chosen message, which the client never reads:
        /// a connection cut while the message was on its way (a notification the server sent
        /// and the listener never got).
        case cut

        var bytes: [UInt8] {
            switch self {
            case .adminShutdown: Self.fatal(code: "57P01", "terminating connection due to administrator command")
            case .poolerLostServer: Self.fatal(code: "08P01", "server conn crashed?")
            case .drop, .cut: []
            }
        }

        /// Whether the client reads the chosen message before the session ends.
        var deliversTheMessage: Bool { self != .cut }

        private static func fatal(code: String, _ message: String) -> [UInt8] {
            var fields: [UInt8] = []
            for (field, value) in [("S", "FATAL"), ("V", "FATAL"), ("C", code), ("M", message)] {
                fields += Array(field.utf8) + Array(value.utf8) + [0]
            }
            fields.append(0)
            let length = UInt32(fields.count + 4)
            return [UInt8(ascii: "E")] + withUnsafeBytes(of: length.bigEndian, Array.init) + fields
        }
    }

    /// Connects through the proxy: the upstream configuration with the proxy's socket directory.
    public let configuration: PostgresConfiguration
    private let directory: URL
    private let listener: Int32
    private let armed = ArmedTrigger()

    /// Listens beside `upstream`, a configuration whose host is a socket directory.
    ///
    /// - Parameter upstream: The database the proxy passes sessions on to.
    /// - Throws: ``ProxyError`` when `upstream` is not reached through a Unix socket, or the
    ///   proxy's socket cannot be made.
    public init(upstream: PostgresConfiguration) throws {
        guard let upstreamDirectory = upstream.host, upstreamDirectory.hasPrefix("/") else {
            throw ProxyError("the upstream must be reached through a Unix socket")
        }
        directory = URL(fileURLWithPath: "/tmp/pgproxy-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        listener = try Self.listen(at: "\(directory.path)/.s.PGSQL.\(upstream.port)")
        var configuration = upstream
        configuration.host = directory.path
        self.configuration = configuration
        let upstreamPath = "\(upstreamDirectory)/.s.PGSQL.\(upstream.port)"
        let thread = Thread { [listener, armed] in Self.accept(on: listener, upstream: upstreamPath, armed: armed) }
        thread.start()
    }

    /// Ends the next session that sends a message `trigger` picks, once, with `ending`.
    ///
    /// - Parameters:
    ///   - trigger: Called with every message the server sends, in order, until it says yes.
    ///   - ending: What the client reads after that message (or in its place).
    public func endSession(after trigger: @escaping Trigger, with ending: Ending = .adminShutdown) {
        armed.arm(trigger, ending: ending)
    }

    /// Takes back the armed trigger, if it has not fired.
    public func disarm() {
        armed.disarm()
    }

    /// Runs `body` with the session that receives the `count`-th message from now ended there,
    /// with `ending`; disarms afterwards.
    ///
    /// - Parameters:
    ///   - count: How many messages pass, that one included, on whichever sessions they come;
    ///     at least 1.
    ///   - ending: What the client reads after that message (or in its place).
    ///   - body: The work to break.
    /// - Returns: What `body` returns, and whether a session was ended (`false` when `body`
    ///   received fewer messages than `count`).
    /// - Throws: What `body` throws.
    public func endingSession<R>(
        afterMessages count: Int, with ending: Ending, during body: () async throws -> R
    ) async rethrows -> (result: R, ended: Bool) {
        let countdown = MessageCountdown(count)
        armed.arm({ _, _ in countdown.tick() }, ending: ending)
        defer { armed.disarm() }
        let result = try await body()
        return (result, armed.hasFired)
    }

    /// Runs `body` with a proxy in front of `upstream` and a pool of one connection through it,
    /// shutting both down afterwards.
    ///
    /// - Parameters:
    ///   - upstream: The database, reached through a Unix socket.
    ///   - body: The work, with the proxy and the pool.
    /// - Returns: What `body` returns.
    /// - Throws: ``ProxyError`` when the proxy cannot start, or what `body` throws.
    public static func withPool<R>(
        upstream: PostgresConfiguration, _ body: (SessionEndingProxy, ConnectionPool) async throws -> R
    ) async throws -> R {
        let proxy = try SessionEndingProxy(upstream: upstream)
        defer { proxy.stop() }
        let pool = ConnectionPool(configuration: proxy.configuration, size: 1, logger: TestCluster.logger)
        do {
            let result = try await body(proxy, pool)
            await pool.shutdown()
            return result
        } catch {
            await pool.shutdown()
            throw error
        }
    }

    /// Whether no trigger is armed: the last one fired, or was taken back.
    public var hasFired: Bool { armed.hasFired }

    /// Stops accepting; sessions already open run on until their ends close them.
    public func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        try? FileManager.default.removeItem(at: directory)
    }

    private static func listen(at path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ProxyError("socket failed") }
        guard withUnixAddress(path, { bind(descriptor, $0, $1) }) == 0, Glibc.listen(descriptor, 16) == 0 else {
            close(descriptor)
            throw ProxyError("could not listen at \(path)")
        }
        return descriptor
    }

    private static func accept(on listener: Int32, upstream: String, armed: ArmedTrigger) {
        while true {
            let client = Glibc.accept(listener, nil, nil)
            guard client >= 0 else { return }
            let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard withUnixAddress(upstream, { connect(server, $0, $1) }) == 0 else {
                close(client)
                close(server)
                continue
            }
            let pair = SocketPair(client: client, server: server)
            Thread { pair.copyClientToServer() }.start()
            Thread { pair.relayServerMessages(armed: armed) }.start()
        }
    }
}

/// One session's two sockets and the two threads copying between them: the first thread to
/// stop shuts both sockets down, which stops the other; the last closes them (closed earlier,
/// a descriptor number could be reused while the other thread still writes to it).
private final class SocketPair: Sendable {
    let client: Int32
    let server: Int32
    private let running = Mutex(2)

    init(client: Int32, server: Int32) {
        self.client = client
        self.server = server
    }

    func copyClientToServer() {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(client, $0.baseAddress, $0.count) }
            guard count > 0, send(Array(buffer[..<count]), to: server) else { break }
        }
        stopped()
    }

    /// Forwards the server's messages one by one, ending the session at the one the armed
    /// trigger picks (after it, or in its place).
    func relayServerMessages(armed: ArmedTrigger) {
        while let header = receive(exactly: 5, from: server) {
            let length = Int(header[1]) << 24 | Int(header[2]) << 16 | Int(header[3]) << 8 | Int(header[4])
            guard length >= 4, let body = receive(exactly: length - 4, from: server) else { break }
            guard let ending = armed.ending(after: header[0], body) else {
                guard send(header + body, to: client) else { break }
                continue
            }
            // One write: the client finds the message and the session's end in the same read,
            // as when a backend sends its FATAL right behind a message and exits.
            _ = send((ending.deliversTheMessage ? header + body : []) + ending.bytes, to: client)
            break
        }
        stopped()
    }

    private func receive(exactly count: Int, from descriptor: Int32) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + filled, count - filled) }
            guard got > 0 else { return nil }
            filled += got
        }
        return bytes
    }

    private func send(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let wrote = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + sent, bytes.count - sent) }
            guard wrote > 0 else { return false }
            sent += wrote
        }
        return true
    }

    private func stopped() {
        shutdown(client, Int32(SHUT_RDWR))
        shutdown(server, Int32(SHUT_RDWR))
        let last = running.withLock { count in
            count -= 1
            return count == 0
        }
        guard last else { return }
        close(client)
        close(server)
    }
}

/// The trigger armed for the next session end, taken by the message that fires it.
private final class ArmedTrigger: Sendable {
    private let armed = Mutex<(trigger: SessionEndingProxy.Trigger, ending: SessionEndingProxy.Ending)?>(nil)

    func arm(_ trigger: @escaping SessionEndingProxy.Trigger, ending: SessionEndingProxy.Ending) {
        armed.withLock { $0 = (trigger, ending) }
    }

    var hasFired: Bool { armed.withLock { $0 == nil } }

    func disarm() {
        armed.withLock { $0 = nil }
    }

    /// How the session ends after this message, if it does; disarms when it does.
    func ending(after type: UInt8, _ body: [UInt8]) -> SessionEndingProxy.Ending? {
        armed.withLock { armed in
            guard let current = armed, current.trigger(type, body) else { return nil }
            armed = nil
            return current.ending
        }
    }
}

/// Counts the server's messages down to the one after which the session ends.
private final class MessageCountdown: Sendable {
    private let remaining: Mutex<Int>

    init(_ messages: Int) {
        remaining = Mutex(messages)
    }

    /// Whether this message is the last one.
    func tick() -> Bool {
        remaining.withLock { count in
            count -= 1
            return count == 0
        }
    }
}

/// Calls `body` with the address of the socket file at `path` (at most 107 bytes), as `bind`
/// and `connect` take it.
private func withUnixAddress(_ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { destination in
        destination.copyBytes(from: Array(path.utf8.prefix(destination.count - 1)))
    }
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
}

/// Why a ``SessionEndingProxy`` could not start.
public struct ProxyError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
    init(_ description: String) { self.description = description }
}
