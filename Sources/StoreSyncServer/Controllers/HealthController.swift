import Hummingbird
import PostgresLibPQ

/// `GET /health/live` (the process answers) and `GET /health/ready` (PostgreSQL answers).
struct HealthController {
    let pool: ConnectionPool

    struct Status: ResponseEncodable {
        let status: String
    }

    func addRoutes(to router: Router<StoreSyncRequestContext>) {
        router.get("health/live") { _, _ in Status(status: "live") }
        router.get("health/ready", use: ready)
    }

    @Sendable func ready(_ request: Request, context: StoreSyncRequestContext) async throws -> Status {
        do {
            try await pool.withConnection { try await $0.execute("SELECT 1") }
        } catch {
            throw ProblemError.serviceUnavailable("the database does not answer")
        }
        return Status(status: "ready")
    }
}
