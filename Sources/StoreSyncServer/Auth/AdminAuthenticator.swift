import Crypto
import Foundation
import Hummingbird

/// Guards the admin routes with `Authorization: Bearer <STORESYNC_ADMIN_API_KEY>`. With no
/// key configured the routes do not exist (404), so nothing can guess at them.
struct AdminAuthenticator: RouterMiddleware {
    typealias Context = StoreSyncRequestContext

    private let keyDigest: SHA256.Digest?

    init(apiKey: String?) {
        keyDigest = apiKey.map { SHA256.hash(data: Data($0.utf8)) }
    }

    func handle(
        _ request: Request, context: StoreSyncRequestContext,
        next: (Request, StoreSyncRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let keyDigest else { throw ProblemError.notFound() }
        // Comparing digests keeps the comparison's time independent of where the keys differ.
        guard let presented = request.bearerToken, SHA256.hash(data: Data(presented.utf8)) == keyDigest else {
            throw ProblemError.unauthorized("the admin API key is missing or wrong")
        }
        return try await next(request, context)
    }
}
