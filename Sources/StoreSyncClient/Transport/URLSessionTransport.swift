public import Foundation

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// The ``StoreSyncTransport`` apps use: Foundation's `URLSession`.
///
/// The default session is ephemeral and has no URL cache: StoreSync does its own caching
/// (signed snapshots and `If-None-Match`), and a shared cache must never answer for another
/// account's bearer token.
public struct URLSessionTransport: StoreSyncTransport {
    private let session: URLSession
    private let timeout: TimeInterval

    private static let defaultSession: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        return URLSession(configuration: configuration)
    }()

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - session: The session to use; an ephemeral, cache-less one when `nil`.
    ///   - timeout: Seconds a request may take before it counts as offline.
    public init(session: URLSession? = nil, timeout: TimeInterval = 30) {
        self.session = session ?? Self.defaultSession
        self.timeout = timeout
    }

    /// Sends one request through the session.
    ///
    /// - Parameter request: The request.
    /// - Returns: The response, whatever its status.
    /// - Throws: `URLError` (or another session error) when no HTTP response arrived.
    public func send(_ request: TransportRequest) async throws -> TransportResponse {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers {
            urlRequest.setValue(value, forHTTPHeaderField: name)
        }
        urlRequest.httpBody = request.body
        let (body, response) = try await session.data(for: urlRequest)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var headers: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name] = value }
        }
        return TransportResponse(status: http.statusCode, headers: headers, body: body)
    }
}
