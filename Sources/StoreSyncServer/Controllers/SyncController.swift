import Hummingbird
import StoreSyncAPI

/// `POST /v1/transactions` and `POST /v1/restore`.
struct SyncController {
    let sync: PurchaseSyncService
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<DeviceRequestContext>) {
        group.post("transactions", use: upload)
        group.post("restore", use: restore)
    }

    @Sendable func upload(_ request: Request, context: DeviceRequestContext) async throws -> SyncResponse {
        let body = try await request.decodeJSON(UploadTransactionRequest.self, limit: maxBodyBytes)
        let outcome = try await sync.upload(body, for: context.device)
        return SyncResponse(verdicts: outcome.verdicts, snapshot: outcome.snapshot)
    }

    @Sendable func restore(_ request: Request, context: DeviceRequestContext) async throws -> SyncResponse {
        let body = try await request.decodeJSON(RestoreRequest.self, limit: maxBodyBytes)
        let outcome = try await sync.restore(body, for: context.device)
        return SyncResponse(verdicts: outcome.verdicts, snapshot: outcome.snapshot)
    }
}
