import Foundation
import Hummingbird
import Logging

/// Resolves `Authorization: Bearer <token>` to the signed-in device; anything else is a 401.
struct DeviceAuthenticator: RouterMiddleware {
    let accounts: AccountService

    func handle(
        _ request: Request, context: StoreSyncRequestContext,
        next: (Request, StoreSyncRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let token = request.bearerToken else { throw ProblemError.unauthorized() }
        guard let device = try await accounts.device(forToken: token) else {
            throw ProblemError.unauthorized("the token is unknown or was signed out")
        }
        var context = context
        context.device = device
        context.logger[metadataKey: "storesync.account_id"] = "\(device.accountId)"
        return try await next(request, context)
    }
}

extension Request {
    /// The token of an `Authorization: Bearer` header.
    var bearerToken: String? {
        guard let header = headers[.authorization] else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
