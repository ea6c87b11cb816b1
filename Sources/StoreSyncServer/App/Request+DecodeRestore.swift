import Hummingbird
import NIOCore
import StoreSyncAPI
import StoreSyncWire

extension Request {
    /// Decodes a restore body as it arrives (``StoreSyncWire/RestoreRequestStream``): each entry
    /// as soon as it is in, so a large restore's body is never held whole beside the texts
    /// decoded from it. The same checks and answers as ``decodeJSON(_:limit:fastPath:)``: 415,
    /// 413 (from the declared length, and from the bytes as they come), and a 400 naming the
    /// field, an entry's by its position; more entries than `maxEntries` are a 400 naming
    /// `entries` as soon as one too many starts, before it is read.
    ///
    /// - Parameters:
    ///   - limit: The largest body accepted, in bytes.
    ///   - maxEntries: The most entries a restore may carry.
    /// - Throws: ``ProblemError`` or ``RequestError`` for every client mistake.
    func decodeRestore(limit: Int, maxEntries: Int) async throws -> RestoreRequest {
        try checkJSONHeaders(limit: limit)
        var stream = RestoreRequestStream(maxEntries: maxEntries)
        do {
            for try await fragment in body {
                guard stream.count + fragment.readableBytes <= limit else { throw ProblemError.payloadTooLarge(limit: limit) }
                try fragment.withUnsafeReadableBytes { try stream.consume($0) }
            }
            guard stream.count > 0 else { throw ProblemError.emptyBody }
            return try stream.finish()
        } catch let error as ProblemError {
            throw error
        } catch let error as RestoreRequestStream.TooManyEntries {
            throw RequestError.tooManyEntries(limit: error.limit)
        } catch is RestoreRequestStream.Malformed {
            throw ProblemError.notJSON
        } catch let error as DecodingError {
            throw ProblemError.describing(error)
        } catch {
            throw ProblemError.bodyEnded
        }
    }
}
