public import Hummingbird
import Foundation
public import StoreSyncAPI

/// An error a client can act on, answered as RFC 9457 `application/problem+json` with a
/// stable `type` URI per kind.
public struct ProblemError: Error, HTTPResponseError, Sendable {
    public let problem: Problem
    public let headers: HTTPFields

    init(_ type: ProblemType, status: HTTPResponse.Status, detail: String? = nil, field: String? = nil, headers: HTTPFields = [:]) {
        problem = Problem(type, status: status.code, detail: detail, field: field)
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
        ProblemError(.invalidRequest, status: .badRequest, detail: detail, field: field)
    }

    static func malformedJSON(_ detail: String, field: String? = nil) -> ProblemError {
        ProblemError(.malformedJSON, status: .badRequest, detail: detail, field: field)
    }

    static func unsupportedMediaType(_ received: String?) -> ProblemError {
        ProblemError(
            .unsupportedMediaType, status: .unsupportedMediaType,
            detail: "send application/json, not \(received ?? "no content type")")
    }

    static func payloadTooLarge(limit: Int) -> ProblemError {
        ProblemError(.payloadTooLarge, status: .contentTooLarge, detail: "the body exceeds \(limit) bytes")
    }

    static func unauthorized(_ detail: String = "a valid bearer token is required") -> ProblemError {
        ProblemError(.unauthorized, status: .unauthorized, detail: detail, headers: [.wwwAuthenticate: "Bearer"])
    }

    static func notFound(_ detail: String = "no such resource") -> ProblemError {
        ProblemError(.notFound, status: .notFound, detail: detail)
    }

    static func emailTaken() -> ProblemError {
        ProblemError(.emailTaken, status: .conflict, detail: "an account with this email exists", field: "email")
    }

    static func weakPassword(_ detail: String) -> ProblemError {
        ProblemError(.weakPassword, status: .badRequest, detail: detail, field: "password")
    }

    static func invalidCredentials() -> ProblemError {
        ProblemError(.invalidCredentials, status: .unauthorized, detail: "email or password is wrong")
    }

    static func rateLimited(retryAfterSeconds: Int) -> ProblemError {
        ProblemError(
            .rateLimited, status: .tooManyRequests, detail: "too many attempts; retry in \(retryAfterSeconds) s",
            headers: [.retryAfter: String(retryAfterSeconds)])
    }

    static func ownedByOtherAccount(_ detail: String) -> ProblemError {
        ProblemError(.ownedByOtherAccount, status: .conflict, detail: detail)
    }

    static func invalidSignedData(_ detail: String, field: String) -> ProblemError {
        ProblemError(.invalidSignedData, status: .badRequest, detail: detail, field: field)
    }

    static func receiptRejected(_ detail: String) -> ProblemError {
        ProblemError(.receiptRejected, status: .badRequest, detail: detail, field: "receipt")
    }

    static func serviceUnavailable(_ detail: String) -> ProblemError {
        ProblemError(.serviceUnavailable, status: .serviceUnavailable, detail: detail, headers: [.retryAfter: "1"])
    }

    static func `internal`() -> ProblemError {
        ProblemError(.internal, status: .internalServerError, detail: "an unexpected error; it has been logged")
    }
}
