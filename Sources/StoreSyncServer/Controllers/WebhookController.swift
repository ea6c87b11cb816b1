import Foundation
import Hummingbird
import StoreSyncAPI

/// `GET /v1/admin/webhooks/deliveries?state=&after=&limit=` and
/// `POST /v1/admin/webhooks/deliveries/{id}/retry` (admin key).
struct WebhookController {
    let deliveries: WebhookDeliveries

    /// Deliveries a page lists when the request does not say.
    static let defaultPageSize = 100

    func addRoutes(to group: RouterGroup<StoreSyncRequestContext>) {
        group.get("webhooks/deliveries", use: list)
        group.post("webhooks/deliveries/{id}/retry", use: retry)
    }

    @Sendable func list(_ request: Request, context: StoreSyncRequestContext) async throws -> WebhookDeliveryPage {
        let query = request.uri.queryParameters
        let states = WebhookDeliveryState.allCases.map(\.rawValue).joined(separator: ", ")
        guard let raw = query.get("state") else {
            throw ProblemError.invalidRequest("state is required: one of \(states)", field: "state")
        }
        guard let state = WebhookDeliveryState(rawValue: raw) else {
            throw ProblemError.invalidRequest("state must be one of \(states)", field: "state")
        }
        let after = try Self.integer(query.get("after"), field: "after", in: 0...Int64.max) ?? 0
        let maximum = Int64(WebhookDeliveries.maximumPageSize)
        let limit = try Self.integer(query.get("limit"), field: "limit", in: 1...maximum) ?? Int64(Self.defaultPageSize)
        return try await deliveries.page(state: state, after: after, limit: Int(limit))
    }

    @Sendable func retry(_ request: Request, context: StoreSyncRequestContext) async throws -> Response {
        guard let id = try Self.integer(context.parameters.get("id"), field: "id", in: 1...Int64.max) else {
            throw ProblemError.invalidRequest("id is required", field: "id")
        }
        switch try await deliveries.retry(id: id) {
        case .retried(let delivery):
            return try context.responseEncoder.encode(delivery, from: request, context: context).with(status: .accepted)
        case .alreadyPending:
            throw ProblemError(.conflict, detail: "delivery \(id) is pending: it is attempted on its own")
        case .notFound:
            throw ProblemError.notFound("no webhook delivery \(id)")
        }
    }

    /// A whole number in `range` from a query or path parameter; `nil` when absent.
    private static func integer(_ raw: String?, field: String, in range: ClosedRange<Int64>) throws -> Int64? {
        guard let raw else { return nil }
        guard let value = Int64(raw), range.contains(value) else {
            throw ProblemError.invalidRequest(
                "\(field) must be a whole number from \(range.lowerBound) to \(range.upperBound)", field: field)
        }
        return value
    }
}
