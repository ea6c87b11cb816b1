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
        // Rendered only if a line is logged, not on every request.
        context.logger[metadataKey: "storesync.account_id"] = .stringConvertible(device.accountId)
        return try await next(request, context)
    }
}

extension Request {
    /// The token of an `Authorization: Bearer` header.
    /// Read on every authenticated request, so it works on the UTF-8 bytes: Foundation's
    /// `trimmingCharacters` and `lowercased` cost more than the rest of a cached lookup's
    /// authentication together.
    var bearerToken: String? {
        guard let header = headers[.authorization] else { return nil }
        let bytes = header.utf8
        let scheme = "bearer ".utf8
        guard bytes.count > scheme.count,
            zip(bytes, scheme).allSatisfy({ byte, expected in byte == expected || (expected != 0x20 && byte | 0x20 == expected) })
        else { return nil }
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let rest = bytes.dropFirst(scheme.count)
        guard let first = rest.firstIndex(where: { !isBlank($0) }), let last = rest.lastIndex(where: { !isBlank($0) })
        else { return nil }
        return String(decoding: rest[first...last], as: UTF8.self)
    }
}
