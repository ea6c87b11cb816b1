import Hummingbird

/// Tells the ``HeapTrimmer`` when requests with large bodies (restores) start and end.
struct HeapTrimMiddleware<Context: RequestContext>: RouterMiddleware {
    let trimmer: HeapTrimmer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard Self.mayBeLarge(request) else { return try await next(request, context) }
        trimmer.started()
        defer { trimmer.ended() }
        return try await next(request, context)
    }

    /// A body-bearing request whose declared length is large, or not declared (chunked).
    static func mayBeLarge(_ request: Request) -> Bool {
        guard [.post, .put, .patch].contains(request.method) else { return false }
        guard let declared = request.headers[.contentLength].flatMap(Int.init) else { return true }
        return declared >= HeapTrimmer.largeBody
    }
}
