import HTTPTypes
import Foundation
import Hummingbird
import NIOCore
import StoreSyncAPI

/// `POST /v1/accounts`, `POST /v1/sessions`, and a signed-in device's own account: its
/// sessions (`GET /v1/sessions`, `DELETE /v1/sessions/current`, `DELETE /v1/sessions/{deviceId}`),
/// its password (`PUT /v1/accounts/current/password`) and its deletion (`DELETE /v1/accounts/current`).
struct AccountController {
    let accounts: AccountService
    /// The largest body it reads: the small anonymous limit where it serves sign-up and
    /// sign-in (anyone may send those), the configured one where it serves a device's routes.
    let maxBodyBytes: Int
    /// Whose `X-Forwarded-For` names the client address the throttles count by.
    var trustedProxies = TrustedProxies()

    func addRoutes(to group: RouterGroup<StoreSyncRequestContext>) {
        group.post("accounts", use: signUp)
        group.post("sessions", use: signIn)
    }

    func addDeviceRoutes(to group: RouterGroup<DeviceRequestContext>) {
        group.delete("sessions/current", use: signOut)
        group.get("sessions", use: sessions)
        group.delete("sessions/{deviceId}", use: signOutDevice)
        group.delete("accounts/current", use: deleteAccount)
        group.put("accounts/current/password", use: changePassword)
    }

    @Sendable func signUp(_ request: Request, context: StoreSyncRequestContext) async throws -> Response {
        let credentials = try await request.decodeJSON(Credentials.self, limit: maxBodyBytes)
        let session = try await accounts.signUp(credentials, clientAddress: clientAddress(of: request, peer: context.remoteAddress))
        return try context.responseEncoder.encode(session, from: request, context: context).with(status: .created)
    }

    @Sendable func signIn(_ request: Request, context: StoreSyncRequestContext) async throws -> SessionResponse {
        let credentials = try await request.decodeJSON(Credentials.self, limit: maxBodyBytes)
        return try await accounts.signIn(credentials, clientAddress: clientAddress(of: request, peer: context.remoteAddress))
    }

    /// The TCP peer, or the client a trusted proxy names (``TrustedProxies``).
    private func clientAddress(of request: Request, peer: SocketAddress?) -> String? {
        trustedProxies.clientAddress(peer: peer?.ipAddress, forwardedFor: request.headers[values: .xForwardedFor])
    }

    @Sendable func signOut(_ request: Request, context: DeviceRequestContext) async throws -> HTTPResponse.Status {
        try await accounts.signOut(context.device)
        return .noContent
    }

    @Sendable func sessions(_ request: Request, context: DeviceRequestContext) async throws -> SessionList {
        try await accounts.sessions(of: context.device)
    }

    @Sendable func signOutDevice(_ request: Request, context: DeviceRequestContext) async throws -> HTTPResponse.Status {
        guard let deviceId = context.parameters.get("deviceId", as: UUID.self) else {
            throw ProblemError.invalidRequest("deviceId must be a UUID", field: "deviceId")
        }
        try await accounts.signOut(deviceId: deviceId, of: context.device)
        return .noContent
    }

    /// An account with a password sends it; one bound to the app backend's user id may send no body.
    @Sendable func deleteAccount(_ request: Request, context: DeviceRequestContext) async throws -> HTTPResponse.Status {
        let body = request.headers[.contentType] == nil
            ? AccountDeletionRequest(password: nil)
            : try await request.decodeJSON(AccountDeletionRequest.self, limit: maxBodyBytes)
        try await accounts.deleteAccount(
            of: context.device, password: body.password, clientAddress: clientAddress(of: request, peer: context.remoteAddress))
        return .noContent
    }

    @Sendable func changePassword(_ request: Request, context: DeviceRequestContext) async throws -> HTTPResponse.Status {
        let change = try await request.decodeJSON(PasswordChangeRequest.self, limit: maxBodyBytes)
        try await accounts.changePassword(
            of: context.device, tokenHash: request.bearerToken.flatMap(BearerToken.hash(of:)), change,
            clientAddress: clientAddress(of: request, peer: context.remoteAddress))
        return .noContent
    }
}

extension HTTPField.Name {
    /// `X-Forwarded-For`: the addresses a request passed through, appended by each proxy.
    static let xForwardedFor = HTTPField.Name("X-Forwarded-For")!
}

extension Response {
    func with(status: HTTPResponse.Status) -> Response {
        var response = self
        response.status = status
        return response
    }
}
