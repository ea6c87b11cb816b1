import Foundation
import Hummingbird
import NIOCore
import StoreSyncAPI
import StoreSyncCore

extension Request {
    /// Decodes a JSON body strictly: `application/json` only (415), at most `limit` bytes
    /// (413), and a 400 naming the field for malformed JSON or a wrong type. Unknown fields
    /// are ignored.
    ///
    /// - Parameters:
    ///   - type: The body type.
    ///   - limit: The largest body accepted, in bytes.
    ///   - fastPath: A reader for the body's common form that answers `nil` for anything
    ///     else; `JSONDecoder` decodes what it leaves, and decides every error.
    /// - Returns: The decoded body.
    /// - Throws: ``ProblemError`` for every client mistake.
    func decodeJSON<Body: Decodable>(
        _ type: Body.Type, limit: Int, fastPath: ((UnsafeRawBufferPointer) -> Body?)? = nil
    ) async throws -> Body {
        try checkJSONHeaders(limit: limit)
        let buffer: ByteBuffer
        do {
            buffer = try await body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw ProblemError.payloadTooLarge(limit: limit)
        } catch {
            throw ProblemError.bodyEnded
        }
        guard buffer.readableBytes > 0 else { throw ProblemError.emptyBody }
        if let fastPath, let body = buffer.withUnsafeReadableBytes(fastPath) { return body }
        do {
            return try StoreSyncJSON.makeDecoder().decode(Body.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw ProblemError.describing(error)
        }
    }

    /// Refuses a body that is not JSON (415) or declares more than `limit` bytes (413), before
    /// a byte of it is read (and before a client waiting for `100 Continue` is invited to send
    /// it).
    func checkJSONHeaders(limit: Int) throws {
        let contentType = headers[.contentType]
        guard let contentType, Self.isJSON(contentType) else { throw ProblemError.unsupportedMediaType(contentType) }
        if let declared = headers[.contentLength].flatMap(Int.init), declared > limit {
            throw ProblemError.payloadTooLarge(limit: limit)
        }
    }

    static func isJSON(_ contentType: String) -> Bool {
        let mediaType = contentType.split(separator: ";", maxSplits: 1)[0].trimmingCharacters(in: .whitespaces).lowercased()
        return mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
    }
}

extension ProblemError {
    /// The connection failed inside the body: the client closed it, or sent nothing for the
    /// idle timeout. A client's doing, not the server's.
    static var bodyEnded: ProblemError { .malformedJSON("the body ended before its declared length") }
    static var emptyBody: ProblemError { .malformedJSON("the body is empty") }
    static var notJSON: ProblemError { .malformedJSON("the body is not valid JSON") }

    /// A 400 that names the offending field, e.g. `entries[3].signedDate`.
    static func describing(_ error: DecodingError) -> ProblemError {
        switch error {
        case .keyNotFound(let key, let context):
            let field = (context.codingPath + [key]).fieldPath(topLevel: "body")
            return .invalidRequest("\(field) is required", field: field)
        case .valueNotFound(let type, let context):
            let field = context.codingPath.fieldPath(topLevel: "body")
            return .invalidRequest("\(field) must be a \(typeName(type)), not null", field: field)
        case .typeMismatch(let type, let context):
            let field = context.codingPath.fieldPath(topLevel: "body")
            return .invalidRequest("\(field) must be a \(typeName(type))", field: field)
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            return .notJSON
        case .dataCorrupted(let context):
            let field = context.codingPath.fieldPath(topLevel: "body")
            return .invalidRequest("\(field) is invalid: \(context.debugDescription)", field: field)
        @unknown default:
            return .malformedJSON("the body could not be decoded")
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "string"
        case is Bool.Type: "boolean"
        case is Int.Type, is Int64.Type, is Int32.Type: "whole number"
        case is Double.Type: "number"
        case is Date.Type: "RFC 3339 date"
        case is UUID.Type: "UUID"
        default:
            String(describing: type).hasPrefix("Dictionary") ? "JSON object"
                : String(describing: type).hasPrefix("Array") ? "JSON array" : "\(type)"
        }
    }
}
