import Hummingbird
import NIOCore
import StoreSyncAPI

/// `POST /v1/accounts`, `POST /v1/sessions`, `DELETE /v1/sessions/current`.
struct AccountController {
    let accounts: AccountService
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<StoreSyncRequestContext>) {
        group.post("accounts", use: signUp)
        group.post("sessions", use: signIn)
    }

    func addDeviceRoutes(to group: RouterGroup<DeviceRequestContext>) {
        group.delete("sessions/current", use: signOut)
    }

    @Sendable func signUp(_ request: Request, context: StoreSyncRequestContext) async throws -> Response {
        let credentials = try await request.decodeJSON(Credentials.self, limit: maxBodyBytes)
        let session = try await accounts.signUp(credentials)
        return try context.responseEncoder.encode(session, from: request, context: context).with(status: .created)
    }

    @Sendable func signIn(_ request: Request, context: StoreSyncRequestContext) async throws -> SessionResponse {
        let credentials = try await request.decodeJSON(Credentials.self, limit: maxBodyBytes)
        return try await accounts.signIn(credentials, clientAddress: context.remoteAddress?.ipAddress)
    }

    @Sendable func signOut(_ request: Request, context: DeviceRequestContext) async throws -> HTTPResponse.Status {
        try await accounts.signOut(context.device, token: request.bearerToken)
        return .noContent
    }
}

extension Response {
    func with(status: HTTPResponse.Status) -> Response {
        var response = self
        response.status = status
        return response
    }
}
