import AsyncHTTPClient
public import Foundation
import NIOCore
import NIOHTTP1
import StoreSyncAPI

/// A server a test talks to over loopback HTTP: the in-process ``TestServer`` or a
/// ``ServerProcess`` running the real binary.
public protocol LiveHTTPServer: TestEndpoint {
    /// `http://127.0.0.1:<port>`.
    var baseURL: URL { get }
}

extension TestServer: LiveHTTPServer {}
extension ServerProcess: LiveHTTPServer {}

extension LiveHTTPServer {
    /// Sends a request over a pooled HTTP/1 connection to ``baseURL``.
    ///
    /// - Parameters:
    ///   - method: `GET`, `POST`, `PUT`, `DELETE`.
    ///   - path: The path and query, e.g. `/v1/entitlements`.
    ///   - token: A bearer token (a device token or the admin key).
    ///   - body: The body bytes.
    ///   - contentType: The `Content-Type` of the body.
    ///   - headers: More headers.
    ///   - timeout: How long to wait for the whole response before throwing (a hung server).
    /// - Returns: The response.
    /// - Throws: Transport errors, or a timeout.
    public func sendRequest(
        _ method: String, _ path: String, token: String?, body: Data?, contentType: String?,
        headers: [String: String], timeout: Duration
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
}

extension TestServer {
    /// The password every ``TestEndpoint/signUp(email:deviceName:)`` account has.
    public static let password = "correct horse battery staple"
}

extension TestServerError {
    static func unexpectedStatus(_ status: Int, _ problem: Problem?) -> TestServerError {
        .unexpected("status \(status): \(problem?.detail ?? problem?.title ?? "no problem details")")
    }
}
