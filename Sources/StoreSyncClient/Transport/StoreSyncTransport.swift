public import Foundation

/// Carries ``StoreSyncClient``'s HTTP requests: ``URLSessionTransport`` in apps; tests and
/// apps with their own networking stack provide another.
///
/// A transport answers every HTTP response, error statuses included, with a
/// ``TransportResponse``; it throws only when no response arrived (no connectivity, timeout,
/// TLS failure). The client treats every such error as ``StoreSyncClientError/offline``.
public protocol StoreSyncTransport: Sendable {
    /// Sends one request.
    ///
    /// - Parameter request: The request.
    /// - Returns: The server's response, whatever its status.
    /// - Throws: When no response arrived.
    func send(_ request: TransportRequest) async throws -> TransportResponse
}

/// One HTTP request to the StoreSync server.
public struct TransportRequest: Sendable, Hashable {
    /// `GET`, `POST` or `DELETE`.
    public var method: String
    /// The full URL.
    public var url: URL
    /// Header fields; `Authorization` carries the bearer token, so never log them whole.
    public var headers: [String: String]
    /// The body, JSON when present.
    public var body: Data?

    /// Creates a request.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - url: The URL.
    ///   - headers: Header fields.
    ///   - body: The body.
    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

/// One HTTP response.
public struct TransportResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// Header fields as received.
    public var headers: [String: String]
    /// The body; empty when there is none.
    public var body: Data

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The status code.
    ///   - headers: Header fields.
    ///   - body: The body.
    public init(status: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A header field, matched case-insensitively.
    ///
    /// - Parameter name: The field name.
    /// - Returns: The value, or `nil`.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.key.lowercased() == wanted }?.value
    }
}
