import HTTPTypes
import Hummingbird
import NIOCore
import StoreSyncAPI

/// `POST /v1/accounts`, `POST /v1/sessions`, `DELETE /v1/sessions/current`.
struct AccountController {
    let accounts: AccountService
    /// The largest body of these routes: sign-up and sign-in need no credentials, so theirs is
    /// the small anonymous limit.
    let maxBodyBytes: Int
    /// Whose `X-Forwarded-For` names the client address the throttles count by.
    var trustedProxies = TrustedProxies()

    func addRoutes(to group: RouterGroup<StoreSyncRequestContext>) {
        group.post("accounts", use: signUp)
        group.post("sessions", use: signIn)
    }

    func addDeviceRoutes(to group: RouterGroup<DeviceRequestContext>) {
        group.delete("sessions/current", use: signOut)
    }

    @Sendable func signUp(_ request: Request, context: StoreSyncRequestContext) async throws -> Response {
        let credentials = try await request.decodeJSON(Credentials.self, limit: maxBodyBytes)
        let session = try await accounts.signUp(credentials, clientAddress: clientAddress(of: request, context: context))
        return try context.responseEncoder.encode(session, from: request, context: context).with(status: .created)
    }

    @Sendable func signIn(_ request: Request, context: StoreSyncRequestContext) async throws -> SessionResponse {
        let credentials = try await request.decodeJSON(Credentials.self, limit: maxBodyBytes)
        return try await accounts.signIn(credentials, clientAddress: clientAddress(of: request, context: context))
    }

    /// The TCP peer, or the client a trusted proxy names (``TrustedProxies``).
    private func clientAddress(of request: Request, context: StoreSyncRequestContext) -> String? {
        trustedProxies.clientAddress(
            peer: context.remoteAddress?.ipAddress, forwardedFor: request.headers[values: .xForwardedFor])
    }

    @Sendable func signOut(_ request: Request, context: DeviceRequestContext) async throws -> HTTPResponse.Status {
        try await accounts.signOut(context.device, token: request.bearerToken)
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
