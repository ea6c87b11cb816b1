import HTTPTypes
import Hummingbird

/// Returns the request id that every log line of the request carries (`X-Request-Id`), so a
/// client's report can be matched to the server's logs; binds it for the request's tasks
/// (``RequestLogMetadata``) so lines of every logger carry it.
struct RequestIdMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await RequestLogMetadata.$requestId.withValue(context.id) {
            try await next(request, context)
        }
        response.headers[.requestId] = context.id
        return response
    }
}

extension HTTPField.Name {
    static let requestId = HTTPField.Name("X-Request-Id")!
}
