internal import CLibPQ
#if canImport(Glibc)
import Glibc
#endif
@testable import PostgresLibPQ
import Testing

/// What the kernel is told about a TCP connection to PostgreSQL, read back from libpq's own
/// socket: a peer that vanishes without closing the connection must not hang its caller.
@Suite struct DeadPeerDetectionTests {
    #if os(Linux)
    // TCP_USER_TIMEOUT is Linux's; elsewhere libpq ignores `tcp_user_timeout`.
    @Test func aTCPConnectionAsksTheKernelToCloseItAMinuteAfterItsPeerFallsSilent() throws {
        let listener = try SilentListener()
        defer { close(listener.descriptor) }
        let configuration = try PostgresConfiguration(url: "postgres://nobody@127.0.0.1:\(listener.port)/db?sslmode=disable")
        let socket = try ConnectingSocket(configuration)
        defer { socket.finish() }

        // Sent data waiting for its acknowledgement: a statement sent into a partition.
        #expect(try socket.option(Int32(IPPROTO_TCP), TCP_USER_TIMEOUT) == 60_000)
        // Nothing in flight, waiting for an answer: probes after 30 s of silence, 10 s apart.
        #expect(try socket.option(SOL_SOCKET, SO_KEEPALIVE) == 1)
        #expect(try socket.option(Int32(IPPROTO_TCP), TCP_KEEPIDLE) == 30)
        #expect(try socket.option(Int32(IPPROTO_TCP), TCP_KEEPINTVL) == 10)
        #expect(try socket.option(Int32(IPPROTO_TCP), TCP_KEEPCNT) == 3)
    }
    #endif

    @Test func aUnixSocketConnectionIsGivenNoTCPSettings() throws {
        let configuration = try PostgresConfiguration(url: "postgres://app@/db?host=/var/run/postgresql")
        let keywords = configuration.connectionParameters.map(\.0)
        #expect(!keywords.contains("tcp_user_timeout"))
        #expect(!keywords.contains("keepalives"))
    }
}

#if os(Linux)
/// A TCP socket on 127.0.0.1 that listens and never answers: the kernel completes a connection
/// to it, so libpq's socket exists with every option set, and the handshake never goes further.
private struct SilentListener {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw SocketCallFailed(call: "socket", errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(descriptor, address, length) == 0 && listen(descriptor, 1) == 0
                    && getsockname(descriptor, address, &length) == 0
            }
        }
        guard bound else {
            close(descriptor)
            throw SocketCallFailed(call: "bind, listen or getsockname", errno: errno)
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }
}

/// A connection libpq has started (`PQconnectStartParams`) with the configuration's own
/// parameters: its socket exists and is connecting.
private struct ConnectingSocket {
    let connection: OpaquePointer
    let descriptor: Int32

    init(_ configuration: PostgresConfiguration) throws {
        let parameters = configuration.connectionParameters
        let started = withCStringArray(parameters.map(\.0)) { keywords in
            withCStringArray(parameters.map(\.1)) { values in PQconnectStartParams(keywords, values, 0) }
        }
        guard let started else { throw LibPQRefused(reason: "libpq could not allocate a connection") }
        guard PQstatus(started) != CONNECTION_BAD, PQsocket(started) >= 0 else {
            let reason = String(cString: PQerrorMessage(started))
            PQfinish(started)
            throw LibPQRefused(reason: reason)
        }
        connection = started
        descriptor = PQsocket(started)
    }

    /// An integer socket option as the kernel holds it.
    func option(_ level: Int32, _ name: Int32) throws -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, level, name, &value, &length) == 0 else {
            throw SocketCallFailed(call: "getsockopt(\(level), \(name))", errno: errno)
        }
        return value
    }

    func finish() { PQfinish(connection) }
}

private struct SocketCallFailed: Error {
    let call: String
    let errno: Int32
}

private struct LibPQRefused: Error {
    let reason: String
}
#endif
