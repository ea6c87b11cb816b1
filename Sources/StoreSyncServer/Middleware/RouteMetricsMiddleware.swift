import Dispatch
import HTTPTypes
import Hummingbird
import Metrics
import NIOConcurrencyHelpers

/// Request metrics by route, under the names Hummingbird's `MetricsMiddleware` uses
/// (`hb.requests`, `http.server.request.duration`, `hb.request.errors`,
/// `http.server.active_requests`), so dashboards built for it keep working.
///
/// Hummingbird's middleware records when the body has been written, by wrapping every body in
/// a closure. That switches off Hummingbird's path that writes a one-buffer answer as a single
/// batch: every answer left in two `write` calls (head, then body) after three hand-offs to the
/// event loop (head, body, end), and the client woke up twice. Our bodies are always one buffer
/// that is handed over right after the handler returns, so recording then loses only that
/// hand-off from the duration, and leaves the body as it is. (A streaming body, should a route
/// ever return one, would be timed to its start only.) Routes are the matched patterns, so the
/// series stay bounded whatever paths clients send.
struct RouteMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    private let cache = RouteMetricsCache()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = DispatchTime.now().uptimeNanoseconds
        let active = cache.activeRequests(method: request.method)
        active.increment()
        defer { active.decrement() }
        do {
            let response = try await next(request, context)
            let route = context.endpointPath ?? "Unknown"
            let metrics = cache.route(route, method: request.method, status: response.status)
            metrics.requests.increment()
            metrics.duration.recordNanoseconds(DispatchTime.now().uptimeNanoseconds - start)
            // Errors reach here as problem answers (`ProblemMiddleware` sits inside): counted as
            // Hummingbird counts the errors its handlers throw, so dashboards built on
            // `hb_request_errors` see outages.
            if response.status.code >= 400 {
                cache.errors(route, method: request.method, status: response.status).increment()
            }
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            let route = context.endpointPath ?? "NotFound"
            cache.route(route, method: request.method, status: status).requests.increment()
            cache.errors(route, method: request.method, status: status).increment()
            throw error
        }
    }
}

/// The metric handles of each method and route, made once: asking the metrics factory for a
/// handle takes its lock and a lookup by label and dimensions, on every request otherwise.
final class RouteMetricsCache: Sendable {
    struct RouteMetrics: Sendable {
        let requests: Counter
        let duration: Metrics.Timer
    }

    private struct RouteKey: Hashable {
        let route: String
        let method: HTTPRequest.Method
        let status: HTTPResponse.Status
    }

    /// The request durations' label, whose buckets the metrics factory sets.
    static let durationLabel = "http.server.request.duration"

    private let meters = NIOLockedValueBox<[HTTPRequest.Method: Meter]>([:])
    private let routes = NIOLockedValueBox<[RouteKey: RouteMetrics]>([:])
    private let errors = NIOLockedValueBox<[RouteKey: Counter]>([:])

    func activeRequests(method: HTTPRequest.Method) -> Meter {
        Self.handle(in: meters, for: method) {
            Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)])
        }
    }

    func route(_ route: String, method: HTTPRequest.Method, status: HTTPResponse.Status) -> RouteMetrics {
        Self.handle(in: routes, for: RouteKey(route: route, method: method, status: status)) {
            let dimensions = [
                ("http.route", route), ("http.request.method", method.rawValue),
                ("http.response.status_code", String(status.code)),
            ]
            return RouteMetrics(
                requests: Counter(label: "hb.requests", dimensions: dimensions),
                duration: Metrics.Timer(label: Self.durationLabel, dimensions: dimensions, preferredDisplayUnit: .seconds))
        }
    }

    /// Made on a route's first error answer only, so successful routes show no zero error series.
    func errors(_ route: String, method: HTTPRequest.Method, status: HTTPResponse.Status) -> Counter {
        Self.handle(in: errors, for: RouteKey(route: route, method: method, status: status)) {
            Counter(label: "hb.request.errors", dimensions: [
                ("http.route", route), ("http.request.method", method.rawValue), ("error.type", String(status.code)),
            ])
        }
    }

    private static func handle<Key: Hashable, Handle: Sendable>(
        in handles: NIOLockedValueBox<[Key: Handle]>, for key: Key, make: () -> Handle
    ) -> Handle {
        handles.withLockedValue { handles in
            if let handle = handles[key] { return handle }
            let handle = make()
            handles[key] = handle
            return handle
        }
    }
}
