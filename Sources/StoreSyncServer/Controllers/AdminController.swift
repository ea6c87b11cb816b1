import Foundation
import Hummingbird
import StoreSyncAPI

/// The app backend's account-linked lookups (admin key).
struct AdminController {
    let lookups: LookupService

    func addRoutes(to group: RouterGroup<StoreSyncRequestContext>) {
        group.get("accounts/{accountId}/entitlements", use: accountEntitlements)
        group.get("entitlements", use: tokenEntitlements)
        group.get("purchases/{originalTransactionId}", use: purchase)
    }

    @Sendable func accountEntitlements(_ request: Request, context: StoreSyncRequestContext) async throws -> Response {
        guard let accountId = context.parameters.get("accountId", as: UUID.self) else {
            throw ProblemError.invalidRequest("accountId must be a UUID", field: "accountId")
        }
        guard let found = try await lookups.snapshot(of: accountId, unlessHeld: request.headers[.ifNoneMatch]) else {
            throw ProblemError.notFound("no such account")
        }
        return EntitlementController.response(for: found)
    }

    @Sendable func tokenEntitlements(_ request: Request, context: StoreSyncRequestContext) async throws -> Response {
        guard let raw = request.uri.queryParameters.get("appAccountToken") else {
            throw ProblemError.invalidRequest("appAccountToken is required", field: "appAccountToken")
        }
        guard let token = UUID(uuidString: raw) else {
            throw ProblemError.invalidRequest("appAccountToken must be a UUID", field: "appAccountToken")
        }
        guard let found = try await lookups.snapshot(ofAppAccountToken: token, unlessHeld: request.headers[.ifNoneMatch]) else {
            throw ProblemError.notFound("no account has this appAccountToken")
        }
        return EntitlementController.response(for: found)
    }

    @Sendable func purchase(_ request: Request, context: StoreSyncRequestContext) async throws -> PurchaseHistory {
        let id = try context.parameters.require("originalTransactionId")
        guard let history = try await lookups.history(of: id) else { throw ProblemError.notFound("no such purchase") }
        return history
    }
}
