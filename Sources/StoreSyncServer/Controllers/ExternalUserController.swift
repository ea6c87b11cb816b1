import Foundation
import Hummingbird
import StoreSyncAPI

/// Bring your own identity (admin key): `PUT /v1/admin/users/{externalUserId}`,
/// `POST …/sessions`, `GET …/entitlements` and `DELETE /v1/admin/users/{externalUserId}`. The id
/// is the app backend's own user id, percent-encoded in the path.
struct ExternalUserController {
    let accounts: AccountService
    let lookups: LookupService
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<StoreSyncRequestContext>) {
        group.put("users/{externalUserId}", use: bind)
        group.post("users/{externalUserId}/sessions", use: mintSession)
        group.get("users/{externalUserId}/entitlements", use: entitlements)
        group.delete("users/{externalUserId}", use: delete)
    }

    /// 201 when this call created the account, 200 when it existed. The body
    /// (`{appAccountToken?}`) is optional.
    @Sendable func bind(_ request: Request, context: StoreSyncRequestContext) async throws -> Response {
        let id = try Self.externalUserId(context)
        let body = request.headers[.contentType] == nil
            ? ExternalUserRequest()
            : try await request.decodeJSON(ExternalUserRequest.self, limit: maxBodyBytes)
        let (user, created) = try await accounts.externalUser(id, appAccountToken: body.appAccountToken)
        return try context.responseEncoder.encode(user, from: request, context: context)
            .with(status: created ? .created : .ok)
    }

    /// The body (`{deviceName?}`) is optional.
    @Sendable func mintSession(_ request: Request, context: StoreSyncRequestContext) async throws -> Response {
        let id = try Self.externalUserId(context)
        let body = request.headers[.contentType] == nil
            ? DeviceSessionRequest()
            : try await request.decodeJSON(DeviceSessionRequest.self, limit: maxBodyBytes)
        let session = try await accounts.mintSession(forExternalUser: id, deviceName: body.deviceName)
        return try context.responseEncoder.encode(session, from: request, context: context).with(status: .created)
    }

    @Sendable func entitlements(_ request: Request, context: StoreSyncRequestContext) async throws -> Response {
        let accountId = try await accounts.accountId(ofExternalUser: try Self.externalUserId(context))
        guard let found = try await lookups.snapshot(of: accountId, unlessHeld: request.headers[.ifNoneMatch]) else {
            throw ProblemError.notFound("no account is bound to this externalUserId")
        }
        return EntitlementController.response(for: found)
    }

    @Sendable func delete(_ request: Request, context: StoreSyncRequestContext) async throws -> HTTPResponse.Status {
        let accountId = try await accounts.accountId(ofExternalUser: try Self.externalUserId(context))
        do {
            try await accounts.delete(accountId, reason: "deleted by the app's backend (DELETE /v1/admin/users/{externalUserId})")
        } catch AccountError.accountDeleted {
            throw ProblemError.notFound("no account is bound to this externalUserId")
        }
        return .noContent
    }

    private static func externalUserId(_ context: StoreSyncRequestContext) throws -> String {
        try externalUserId(pathSegment: try context.parameters.require("externalUserId"))
    }

    /// The id in a path segment, percent-decoded (the router matches the raw path); its rules
    /// are checked by ``ExternalUserId``.
    ///
    /// - Throws: ``ProblemError`` naming `externalUserId` when the escapes do not decode to UTF-8.
    static func externalUserId(pathSegment: String) throws -> String {
        guard let decoded = pathSegment.removingPercentEncoding else {
            throw ProblemError.invalidRequest("externalUserId is not validly percent-encoded UTF-8", field: "externalUserId")
        }
        return decoded
    }
}
