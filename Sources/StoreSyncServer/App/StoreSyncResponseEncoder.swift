import Foundation
public import Hummingbird
import StoreSyncAPI

/// Encodes response bodies as JSON with StoreSync's RFC 3339 millisecond dates.
public struct StoreSyncResponseEncoder: ResponseEncoder {
    public init() {}

    public func encode(_ value: some Encodable, from request: Request, context: some RequestContext) throws -> Response {
        let data = try StoreSyncJSON.makeEncoder().encode(value)
        return Response.json(data)
    }
}

extension Response {
    /// A response whose body is already-encoded JSON (200 unless told).
    static func json(_ data: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        json(ByteBuffer(bytes: data), status: status, headers: headers)
    }

    /// A response whose body is already-encoded JSON in a buffer it shares, not copies.
    private static func json(_ buffer: ByteBuffer, status: HTTPResponse.Status, headers: HTTPFields) -> Response {
        Response(
            status: status, headers: jsonFields(headers, length: buffer.readableBytes), body: .init(byteBuffer: buffer))
    }

    /// A response whose body is already-encoded JSON; a large one (a restore's answer with a
    /// long history) is copied to the connection a part at a time as it drains, not into a
    /// second whole buffer first.
    static func json(_ bytes: [UInt8], status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        guard bytes.count > streamedPart else { return json(ByteBuffer(bytes: bytes), status: status, headers: headers) }
        let body = ResponseBody(contentLength: bytes.count) { writer in
            var start = 0
            while start < bytes.count {
                let end = min(start + streamedPart, bytes.count)
                try await writer.write(ByteBuffer(bytes: bytes[start..<end]))
                start = end
            }
            try await writer.finish(nil)
        }
        return Response(status: status, headers: jsonFields(headers, length: bytes.count), body: body)
    }

    /// The size of the parts a large body is sent in: few enough writes, little memory.
    private static let streamedPart = 1 << 20

    private static func jsonFields(_ headers: HTTPFields, length: Int) -> HTTPFields {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.contentLength] = String(length)
        return fields
    }
}
