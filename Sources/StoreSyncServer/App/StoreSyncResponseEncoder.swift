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
    /// A 200 response whose body is already-encoded JSON.
    static func json(_ data: Data, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.contentLength] = String(data.count)
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
