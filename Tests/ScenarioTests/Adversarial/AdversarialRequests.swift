import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting
import Testing

/// The requests the adversarial tests send, as an attacker or a careless client writes them,
/// failing the test on an unexpected status.
extension TestServer {
    /// `POST /v1/restore`, expecting a 200.
    func restore(
        _ entries: [TransactionRecord], legacyFlags: [String: Bool]? = nil, userInitiated: Bool = true,
        dryRun: Bool = false, token: String
    ) async throws -> SyncResponse {
        let response = try await send(
            "POST", "/v1/restore", token: token,
            json: RestoreRequest(entries: entries, legacyFlags: legacyFlags, userInitiated: userInitiated, dryRun: dryRun))
        try #require(response.status == 200, "answered \(response.status): \(response.problem?.detail ?? "")")
        return try response.decode(SyncResponse.self)
    }

    /// `POST /v1/transactions` with one JWS, expecting a 200.
    func upload(_ jws: String, token: String) async throws -> SyncResponse {
        let response = try await send(
            "POST", "/v1/transactions", token: token, json: UploadTransactionRequest(signedTransaction: jws))
        try #require(response.status == 200, "answered \(response.status): \(response.problem?.detail ?? "")")
        return try response.decode(SyncResponse.self)
    }

    /// `GET /v1/entitlements`: the account's signed snapshot.
    func snapshot(token: String) async throws -> Snapshot {
        let response = try await send("GET", "/v1/entitlements", token: token)
        try #require(response.status == 200, "answered \(response.status)")
        return try response.decode(Snapshot.self)
    }

    /// The entitlement ids the account's snapshot grants.
    func entitlementIds(token: String) async throws -> [String] {
        try await snapshot(token: token).entitlements.map(\.entitlementId)
    }
}

/// A restore entry exactly as a device that holds the purchase's JWS sends it.
func entry(_ purchase: TestPurchase) -> TransactionRecord {
    var entry = purchase.record
    entry.signedTransaction = purchase.jws
    return entry
}
