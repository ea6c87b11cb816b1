import Foundation
import Hummingbird
import StoreSyncAPI

/// `GET /v1/entitlements`: the device's account snapshot, with ETag and 304.
struct EntitlementController {
    let lookups: LookupService

    func addRoutes(to group: RouterGroup<DeviceRequestContext>) {
        group.get("entitlements", use: entitlements)
    }

    @Sendable func entitlements(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        guard let found = try await lookups.snapshot(of: context.device.accountId, unlessHeld: request.headers[.ifNoneMatch])
        else {
            throw ProblemError.unauthorized("the account of this session no longer exists")
        }
        return Self.response(for: found)
    }

    /// 304 when the client already holds this version, else the snapshot; both carry the ETag.
    static func response(for found: LookupService.SnapshotResponse) -> Response {
        var headers: HTTPFields = [.eTag: found.etag, .cacheControl: "private, no-cache"]
        switch found {
        case .current:
            return Response(status: .notModified, headers: headers)
        case .snapshot(let body, _):
            headers[.contentType] = "application/json; charset=utf-8"
            return Response.json(body, headers: headers)
        }
    }
}
