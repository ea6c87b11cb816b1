import Hummingbird
import StoreSyncAPI
import StoreSyncWire

/// `POST /v1/transactions` and `POST /v1/restore`.
struct SyncController {
    let sync: PurchaseSyncService
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<DeviceRequestContext>) {
        group.post("transactions", use: upload)
        group.post("restore", use: restore)
    }

    @Sendable func upload(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let body = try await request.decodeJSON(UploadTransactionRequest.self, limit: maxBodyBytes)
        return Self.response(for: try await sync.upload(body, for: context.device))
    }

    @Sendable func restore(_ request: Request, context: DeviceRequestContext) async throws -> Response {
        let outcome = try await sync.restore(for: context.device) { maxEntries in
            try await request.decodeRestore(limit: maxBodyBytes, maxEntries: maxEntries)
        }
        return Self.response(for: outcome)
    }

    /// The ``SyncResponse`` the sync wrote, with the ETag of its snapshot: sent back in
    /// `If-None-Match`, it keeps the device's next lookup from being answered with less.
    private static func response(for outcome: SyncOutcome) -> Response {
        guard let etag = outcome.etag else { return .json(outcome.body) }
        return .json(outcome.body, headers: [.eTag: etag])
    }
}
