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
        guard let found = try await lookups.snapshot(of: context.device.accountId) else {
            throw ProblemError.unauthorized("the account of this session no longer exists")
        }
        return Self.response(for: found, request: request)
    }

    /// 304 when the client already holds this version, else the snapshot; both carry the ETag.
    static func response(for found: LookupService.SnapshotResponse, request: Request) -> Response {
        var headers: HTTPFields = [.eTag: found.etag, .cacheControl: "private, no-cache"]
        if let presented = request.headers[.ifNoneMatch], Self.matches(presented, found.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json; charset=utf-8"
        return Response.json(found.body, headers: headers)
    }

    /// `If-None-Match` may list several tags, or `*`.
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/\(etag)"
        }
    }
}
