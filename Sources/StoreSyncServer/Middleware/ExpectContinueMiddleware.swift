import Hummingbird
import NIOCore

/// Tells the connection's ``ExpectContinueHandler`` to send `100 Continue` when the route first
/// reads the body of a request that expects it: authentication and the size check have passed
/// by then, so only a request that may proceed is invited to send its body.
struct ExpectContinueMiddleware: RouterMiddleware {
    typealias Context = StoreSyncRequestContext

    func handle(
        _ request: Request, context: StoreSyncRequestContext,
        next: (Request, StoreSyncRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let connection = context.connection, request.headers[.expect]?.lowercased() == "100-continue" else {
            return try await next(request, context)
        }
        var request = request
        request.body = RequestBody(asyncSequence: ContinuingBody(base: request.body, connection: connection))
        return try await next(request, context)
    }
}

/// A request body that signals ``ExpectContinueHandler/Proceed`` before its first read.
private struct ContinuingBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let base: RequestBody
    let connection: any Channel

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let connection: any Channel
        var signalled = false

        mutating func next() async throws -> ByteBuffer? {
            if !signalled {
                signalled = true
                try await connection.triggerUserOutboundEvent(ExpectContinueHandler.Proceed()).get()
            }
            return try await base.next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), connection: connection)
    }
}
