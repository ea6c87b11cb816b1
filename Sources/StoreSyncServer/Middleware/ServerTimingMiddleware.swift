import Foundation
import HTTPTypes
import Hummingbird

/// `Server-Timing: app;dur=<ms>`: how long the server spent on the request, so load tools and
/// browsers see server time apart from the network's.
struct ServerTimingMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        var response = try await next(request, context)
        response.headers[.serverTiming] = "app;dur=\(Self.milliseconds(ContinuousClock.now - start))"
        return response
    }

    /// Milliseconds with three decimals, without `String(format:)`, which goes through
    /// Foundation's formatter on every request.
    static func milliseconds(_ elapsed: Duration) -> String {
        let microseconds = elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000
        let fraction = String(microseconds % 1000)
        return "\(microseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}

extension HTTPField.Name {
    static let serverTiming = HTTPField.Name("Server-Timing")!
}
