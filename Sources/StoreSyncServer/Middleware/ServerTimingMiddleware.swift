import Foundation
import HTTPTypes
import Hummingbird

/// `Server-Timing: app;dur=<ms>`: how long the server spent on the request, so load tools and
/// browsers see server time apart from the network's.
struct ServerTimingMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var response = try await next(request, context)
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        response.headers[.serverTiming] = "app;dur=\(String(format: "%.3f", milliseconds))"
        return response
    }
}

extension HTTPField.Name {
    static let serverTiming = HTTPField.Name("Server-Timing")!
}
