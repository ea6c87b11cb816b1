import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
public import StoreSyncAPI

/// A response as a test sees it.
public struct TestResponse: Sendable {
    public let status: Int
    public let headers: [String: String]
    public let body: Data

    /// The body decoded with StoreSync's JSON coder.
    ///
    /// - Parameter type: The expected body type.
    /// - Returns: The decoded body.
    /// - Throws: `DecodingError` when the body is not of that type.
    public func decode<Body: Decodable>(_ type: Body.Type) throws -> Body {
        try StoreSyncJSON.makeDecoder().decode(Body.self, from: body)
    }

    /// The problem details of an error response, if the body is one.
    public var problem: Problem? { try? decode(Problem.self) }

    /// A header, case-insensitively.
    ///
    /// - Parameter name: The header name.
    public func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }
}

/// A server a test talks to over loopback HTTP: the in-process ``TestServer`` or a
/// ``ServerProcess`` running the real binary. Both get the same `send` helpers.
public protocol LiveHTTPServer: Sendable {
    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { get }
}

extension TestServer: LiveHTTPServer {}
extension ServerProcess: LiveHTTPServer {}

extension LiveHTTPServer {
    /// Sends a request with a raw body.
    ///
    /// - Parameters:
    ///   - method: `GET`, `POST`, `PUT`, `DELETE`.
    ///   - path: The path and query, e.g. `/v1/entitlements`.
    ///   - token: A bearer token (a device token or the admin key).
    ///   - body: The body bytes.
    ///   - contentType: The `Content-Type`, `application/json` unless given.
    ///   - headers: More headers.
    ///   - timeout: How long to wait for the whole response before throwing (a hung server).
    /// - Returns: The response.
    public func send(
        _ method: String, _ path: String, token: String? = nil, body: Data? = nil,
        contentType: String? = "application/json", headers: [String: String] = [:], timeout: Duration = .seconds(60)
    ) async throws -> TestResponse {
        var request = HTTPClientRequest(url: baseURL.absoluteString + path)
        request.method = HTTPMethod(rawValue: method)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            request.body = .bytes(ByteBuffer(bytes: body))
            if let contentType { request.headers.add(name: "Content-Type", value: contentType) }
        }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await TestHTTPClient.shared.execute(request, timeout: .milliseconds(Int64(timeout / .milliseconds(1))))
        let bytes = try await response.body.collect(upTo: 256 * 1024 * 1024)
        var fields: [String: String] = [:]
        for header in response.headers { fields[header.name] = header.value }
        return TestResponse(status: Int(response.status.code), headers: fields, body: Data(bytes.readableBytesView))
    }

    /// Sends a JSON body.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path.
    ///   - token: A bearer token.
    ///   - json: The body, encoded with StoreSync's JSON coder.
    ///   - timeout: How long to wait for the whole response before throwing.
    /// - Returns: The response.
    public func send(
        _ method: String, _ path: String, token: String? = nil, json: some Encodable, timeout: Duration = .seconds(60)
    ) async throws -> TestResponse {
        try await send(method, path, token: token, body: try StoreSyncJSON.makeEncoder().encode(json), timeout: timeout)
    }

    /// Creates an account and returns its session.
    ///
    /// - Parameters:
    ///   - email: The email; unique per call by default.
    ///   - deviceName: The first device's name.
    /// - Returns: The new session.
    public func signUp(email: String = "user-\(UUID().uuidString.prefix(8))@example.com", deviceName: String = "iPhone")
        async throws -> SessionResponse
    {
        let response = try await send(
            "POST", "/v1/accounts",
            json: Credentials(email: email, password: TestServer.password, deviceName: deviceName))
        guard response.status == 201 else { throw TestServerError.unexpectedStatus(response.status, response.problem) }
        return try response.decode(SessionResponse.self)
    }
}

extension TestServer {
    /// The password every ``LiveHTTPServer/signUp(email:deviceName:)`` account has.
    public static let password = "correct horse battery staple"
}

extension TestServerError {
    static func unexpectedStatus(_ status: Int, _ problem: Problem?) -> TestServerError {
        .unexpected("status \(status): \(problem?.detail ?? problem?.title ?? "no problem details")")
    }
}
