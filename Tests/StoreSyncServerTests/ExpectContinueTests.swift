import Foundation
import StoreSyncAPI
import StoreSyncTesting
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `Expect: 100-continue`, as curl sends it before a body over 1 MiB: the server answers
/// `100 Continue` before the client sends the body, instead of leaving it to wait out its own
/// timeout.
@Suite struct ExpectContinueTests {
    @Test func aRequestThatExpects100ContinueGetsItBeforeItsBodyIsSent() async throws {
        try await withLiveServer { server in
            let account = try await server.signUp()
            let body = #"{"entries":[],"userInitiated":true}"#
            let exchange = try await RawHTTPExchange.run(port: server.port) { connection in
                try connection.transmit(Self.head(token: account.token, length: body.utf8.count, expect: "100-continue"))
                // Nothing of the body has been sent: only the server's own initiative answers this.
                let interim = try connection.readHead()
                try connection.transmit(body)
                return (interim, try connection.readHead())
            }
            #expect(exchange.0.hasPrefix("HTTP/1.1 100 Continue"))
            #expect(exchange.1.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func aRequestWithoutTheExpectationGetsOnlyItsAnswer() async throws {
        try await withLiveServer { server in
            let account = try await server.signUp()
            let body = #"{"entries":[]}"#
            let answer = try await RawHTTPExchange.run(port: server.port) { connection in
                try connection.transmit(Self.head(token: account.token, length: body.utf8.count, expect: nil) + body)
                return try connection.readHead()
            }
            #expect(answer.hasPrefix("HTTP/1.1 200"))
        }
    }

    private static func head(token: String, length: Int, expect: String?) -> String {
        "POST /v1/restore HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(length)\r\n"
            + (expect.map { "Expect: \($0)\r\n" } ?? "") + "\r\n"
    }
}

/// A blocking TCP connection to the test server, driven on a thread of its own (the server
/// runs in this process, on the same cooperative pool the test would otherwise block).
private final class RawHTTPExchange {
    private let socket: Int32
    private var buffered: [UInt8] = []

    private init(port: Int) throws {
        #if canImport(Glibc)
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw RawHTTPError("socket() failed") }
        // A server that never answers fails the test instead of hanging it.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(socket)
            throw RawHTTPError("connect() failed")
        }
    }

    deinit { close(socket) }

    /// Runs `body` with a new connection on a thread of its own.
    static func run<R: Sendable>(port: Int, _ body: @escaping @Sendable (RawHTTPExchange) throws -> R) async throws -> R {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try body(try RawHTTPExchange(port: port)) })
            }.start()
        }
    }

    func transmit(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw RawHTTPError("send() failed") }
            sent += count
        }
    }

    /// The next response's status line and headers (up to the blank line).
    func readHead() throws -> String {
        while true {
            if let end = buffered.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: buffered[..<end.lowerBound], as: UTF8.self)
                buffered.removeSubrange(..<end.upperBound)
                return head
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw RawHTTPError("the server sent no (further) response head") }
            buffered += chunk[..<count]
        }
    }
}

private struct RawHTTPError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
