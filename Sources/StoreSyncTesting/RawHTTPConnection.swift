public import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A blocking TCP connection to a test server, byte for byte: for what an HTTP client library
/// will not do — hold a request back halfway, wait for `100 Continue`, open connections and
/// send nothing.
///
/// Each one lives on a thread of its own (``run(port:receiveTimeoutSeconds:_:)``): the server
/// under test runs in this process, on the cooperative pool a blocking call would otherwise stall.
public final class RawHTTPConnection {
    private let socket: Int32
    private var buffered: [UInt8] = []

    private init(port: Int, receiveTimeoutSeconds: Int) throws {
        #if canImport(Glibc)
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw RawHTTPError("socket() failed") }
        // A server that never answers fails the test instead of hanging it.
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
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

    /// Opens a connection from the calling thread, which must not be one of Swift
    /// Concurrency's: inside ``run(port:receiveTimeoutSeconds:_:)``, for a second connection
    /// held open beside the first.
    ///
    /// - Parameters:
    ///   - port: The server's port on 127.0.0.1.
    ///   - receiveTimeoutSeconds: How long one read waits before it fails.
    /// - Returns: The connection; it closes when released.
    /// - Throws: ``RawHTTPError`` when the connection fails.
    public static func open(port: Int, receiveTimeoutSeconds: Int = 30) throws -> RawHTTPConnection {
        try RawHTTPConnection(port: port, receiveTimeoutSeconds: receiveTimeoutSeconds)
    }

    /// Runs `body` with a new connection on a thread of its own; the connection closes after.
    ///
    /// - Parameters:
    ///   - port: The server's port on 127.0.0.1.
    ///   - receiveTimeoutSeconds: How long one read waits before it fails.
    ///   - body: What to do with the connection.
    /// - Returns: What `body` returns.
    /// - Throws: ``RawHTTPError`` when the connection fails, or what `body` throws.
    public static func run<R: Sendable>(
        port: Int, receiveTimeoutSeconds: Int = 30, _ body: @escaping @Sendable (RawHTTPConnection) throws -> R
    ) async throws -> R {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try body(try RawHTTPConnection(port: port, receiveTimeoutSeconds: receiveTimeoutSeconds)) })
            }.start()
        }
    }

    /// Sends text as it is.
    ///
    /// - Parameter text: The bytes to send, as UTF-8.
    /// - Throws: ``RawHTTPError`` when the server closed the connection.
    public func transmit(_ text: String) throws {
        let bytes = Array(text.utf8)
        #if canImport(Glibc)
        let flags = Int32(MSG_NOSIGNAL)  // a closed connection is an error here, not a SIGPIPE
        #else
        let flags: Int32 = 0
        #endif
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(socket, $0.baseAddress, $0.count, flags) }
            guard count > 0 else { throw RawHTTPError("send() failed") }
            sent += count
        }
    }

    /// The next response's status line and headers (up to the blank line); a body announced by
    /// `Content-Length` is read and dropped, so the next call reads the next response.
    ///
    /// - Returns: The head, without the blank line.
    /// - Throws: ``RawHTTPError`` when the connection closes or the read times out first.
    public func readHead() throws -> String {
        try readResponse().head
    }

    /// The next response: its status line and headers (up to the blank line), and the body
    /// announced by `Content-Length`.
    ///
    /// - Returns: The head, without the blank line, and the body.
    /// - Throws: ``RawHTTPError`` when the connection closes or the read times out first.
    public func readResponse() throws -> (head: String, body: Data) {
        while true {
            if let end = buffered.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: buffered[..<end.lowerBound], as: UTF8.self)
                buffered.removeSubrange(..<end.upperBound)
                return (head, try take(bytes: Self.contentLength(of: head)))
            }
            guard try receive() else { throw RawHTTPError("the server sent no (further) response head") }
        }
    }

    private static func contentLength(of head: String) -> Int {
        let field = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
        return field.flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
    }

    private func take(bytes count: Int) throws -> Data {
        while buffered.count < count {
            guard try receive() else { throw RawHTTPError("the server closed the connection inside a body") }
        }
        defer { buffered.removeFirst(count) }
        return Data(buffered.prefix(count))
    }

    /// Reads until the server closes the connection, dropping what arrives.
    ///
    /// - Throws: ``RawHTTPError`` when a read times out first: the server kept it open.
    public func waitUntilClosed() throws {
        while try receive() {}
    }

    /// Reads what is there; `false` once the server has closed the connection.
    private func receive() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffered += chunk[..<count]
            return true
        }
        if count == 0 || errno == ECONNRESET { return false }
        throw RawHTTPError(errno == EAGAIN || errno == EWOULDBLOCK ? "the server kept the connection open" : "recv() failed")
    }
}

/// Why a ``RawHTTPConnection`` step failed.
public struct RawHTTPError: Error, CustomStringConvertible {
    /// What happened.
    public let description: String

    init(_ description: String) { self.description = description }
}
