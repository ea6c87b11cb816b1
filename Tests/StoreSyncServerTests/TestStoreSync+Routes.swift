import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// The routes as the tests call them, failing the test on an unexpected status.
extension TestStoreSync {
    func upload(_ jws: String, token: String, expect status: Int = 200) async throws -> TestResponse {
        let response = try await send(
            "POST", "/v1/transactions", token: token, json: UploadTransactionRequest(signedTransaction: jws))
        #expect(response.status == status, "\(response.problem?.detail ?? "")")
        return response
    }

    /// Uploads a legacy receipt (its bytes base64-encoded); the verifyReceipt stand-in decides
    /// what it holds.
    func uploadReceipt(_ bytes: String = "a receipt", token: String) async throws -> TestResponse {
        try await send(
            "POST", "/v1/transactions", token: token,
            json: UploadTransactionRequest(receipt: Data(bytes.utf8).base64EncodedString()))
    }

    func buy(_ record: TransactionRecord, token: String) async throws -> SyncResponse {
        try await upload(signer.signTransaction(record), token: token).decode(SyncResponse.self)
    }

    func restore(
        _ entries: [TransactionRecord], legacyFlags: [String: Bool]? = nil, userInitiated: Bool = true,
        dryRun: Bool = false, token: String
    ) async throws -> SyncResponse {
        let response = try await send(
            "POST", "/v1/restore", token: token,
            json: RestoreRequest(entries: entries, legacyFlags: legacyFlags, userInitiated: userInitiated, dryRun: dryRun))
        #expect(response.status == 200, "\(response.problem?.detail ?? "")")
        return try response.decode(SyncResponse.self)
    }

    /// A restore entry exactly as a device that holds the JWS sends it.
    func entry(_ record: TransactionRecord) -> TransactionRecord {
        var entry = record
        entry.signedTransaction = signer.signTransaction(record)
        return entry
    }

    func notify(
        _ type: NotificationType, subtype: NotificationSubtype? = nil, uuid: UUID = UUID(),
        transaction: TransactionRecord? = nil, renewal: RenewalInfo? = nil
    ) async throws -> String {
        let response = try await postNotification(type, subtype: subtype, uuid: uuid, transaction: transaction, renewal: renewal)
        #expect(response.status == 200, "\(response.problem?.detail ?? "")")
        return (try? JSONSerialization.jsonObject(with: response.body) as? [String: String])?["status"] ?? ""
    }

    /// Buys a monthly subscription that lapsed a day ago and tells the server, by a Server
    /// Notification, that it is in a billing grace period for five more days: the account is
    /// entitled through its renewal info alone.
    func buyLapsedSubscriptionInGracePeriod(token: String) async throws -> TransactionRecord {
        let now = clock.now()
        let lapsed = TestPurchases.record(
            TestCatalog.monthly, type: .autoRenewable, purchased: now.addingTimeInterval(-31 * 86_400),
            expires: now.addingTimeInterval(-86_400), group: TestCatalog.subscriptionGroup)
        _ = try await buy(lapsed, token: token)
        let renewal = RenewalInfo(
            originalTransactionId: lapsed.originalTransactionId, autoRenewProductId: TestCatalog.monthly,
            productId: TestCatalog.monthly, autoRenewStatus: true, isInBillingRetryPeriod: true,
            gracePeriodExpiresDate: now.addingTimeInterval(5 * 86_400), environment: .sandbox, signedDate: now)
        #expect(try await notify(.didFailToRenew, subtype: .gracePeriod, transaction: lapsed, renewal: renewal) == "processed")
        return lapsed
    }

    func snapshot(token: String) async throws -> Snapshot {
        let response = try await send("GET", "/v1/entitlements", token: token)
        #expect(response.status == 200)
        return try response.decode(Snapshot.self)
    }

    func entitlementIds(token: String) async throws -> [String] {
        try await snapshot(token: token).entitlements.map(\.entitlementId)
    }
}

/// Runs a test against a fresh server application, tested in process through its router (no
/// socket), and always stops it. What needs a connection is tested with `withLiveServer`.
func withServer<R: Sendable>(
    clock: TestClock = TestClock(),
    configure: @Sendable (inout StoreSyncServer.ServerConfiguration) -> Void = { _ in },
    _ body: (TestApp) async throws -> R
) async throws -> R {
    try await withTestApp(clock: clock, configure: configure, body)
}
