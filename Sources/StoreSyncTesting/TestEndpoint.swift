public import Foundation
public import StoreSyncAPI

/// Where a test sends its requests: StoreSync's router in this process (``TestApp``), or a
/// server over loopback HTTP (``TestServer``, ``ServerProcess``). Every helper built on
/// ``sendRequest(_:_:token:body:contentType:headers:timeout:)`` works with each of them.
public protocol TestEndpoint: Sendable {
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
    /// - Throws: Transport errors, or a timeout.
    func sendRequest(
        _ method: String, _ path: String, token: String?, body: Data?, contentType: String?,
        headers: [String: String], timeout: Duration
    ) async throws -> TestResponse
}

extension TestEndpoint {
    /// Sends a request with a raw body.
    ///
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path and query.
    ///   - token: A bearer token.
    ///   - body: The body bytes.
    ///   - contentType: The `Content-Type`, `application/json` unless given.
    ///   - headers: More headers.
    ///   - timeout: How long to wait for the whole response before throwing.
    /// - Returns: The response.
    /// - Throws: Transport errors, or a timeout.
    public func send(
        _ method: String, _ path: String, token: String? = nil, body: Data? = nil,
        contentType: String? = "application/json", headers: [String: String] = [:], timeout: Duration = .seconds(60)
    ) async throws -> TestResponse {
        try await sendRequest(
            method, path, token: token, body: body, contentType: contentType, headers: headers, timeout: timeout)
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
    /// - Throws: Transport errors, or a timeout.
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
    /// - Throws: ``TestServerError`` when the server does not answer 201.
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
