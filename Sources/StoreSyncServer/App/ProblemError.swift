public import Hummingbird
import Foundation
public import StoreSyncAPI

/// An error a client can act on, answered as RFC 9457 `application/problem+json` with a
/// stable `type` URI per kind.
public struct ProblemError: Error, HTTPResponseError, Sendable {
    public let problem: Problem
    public let headers: HTTPFields

    /// A problem of `type`, answered with the type's own status unless `status` overrides it.
    init(
        _ type: ProblemType, status: HTTPResponse.Status? = nil, detail: String? = nil, field: String? = nil,
        headers: HTTPFields = [:]
    ) {
        problem = Problem(type, status: status?.code ?? type.status, detail: detail, field: field)
        self.headers = headers
    }

    public var status: HTTPResponse.Status { HTTPResponse.Status(code: problem.status) }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var fields = headers
        fields[.contentType] = "application/problem+json"
        let body = try StoreSyncJSON.makeEncoder().encode(problem)
        fields[.contentLength] = String(body.count)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension ProblemError {
    static func invalidRequest(_ detail: String, field: String? = nil) -> ProblemError {
        ProblemError(.invalidRequest, detail: detail, field: field)
    }

    static func malformedJSON(_ detail: String, field: String? = nil) -> ProblemError {
        ProblemError(.malformedJSON, detail: detail, field: field)
    }

    static func unsupportedMediaType(_ received: String?) -> ProblemError {
        ProblemError(
            .unsupportedMediaType, status: .unsupportedMediaType,
            detail: "send application/json, not \(received ?? "no content type")")
    }

    static func payloadTooLarge(limit: Int) -> ProblemError {
        ProblemError(.payloadTooLarge, detail: "the body exceeds \(limit) bytes")
    }

    static func unauthorized(_ detail: String = "a valid bearer token is required") -> ProblemError {
        ProblemError(.unauthorized, detail: detail, headers: [.wwwAuthenticate: "Bearer"])
    }

    static func notFound(_ detail: String = "no such resource") -> ProblemError {
        ProblemError(.notFound, detail: detail)
    }

    static func serviceUnavailable(_ detail: String) -> ProblemError {
        ProblemError(.serviceUnavailable, detail: detail, headers: [.retryAfter: "1"])
    }

    static func `internal`() -> ProblemError {
        ProblemError(.internal, detail: "an unexpected error; it has been logged")
    }
}
