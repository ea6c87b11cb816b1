import AppStoreVerification
import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Finding 2: a legacy receipt carries no signing date, so a version mapped from it must never
/// outrank what Apple signed for the same transaction, and the same receipt sent again must
/// change nothing.
@Suite("Adversarial: receipt versions") struct ReceiptVersionTests {
    @Test("An old receipt uploaded after a refund does not bring the refunded purchase back")
    func aReceiptNeverOutranksARefund() async throws {
        let clock = TestClock()
        let transactionId = TestPurchase.nextId()
        let purchased = clock.now().addingTimeInterval(-2 * 86_400)
        let receiptEntry = ReceiptEntry(
            productId: TestCatalog.lifetime, transactionId: transactionId, originalTransactionId: transactionId,
            purchaseDateMs: String(purchased.millisecondsSince1970))
        try await Self.withReceiptServer(clock: clock, entries: [receiptEntry]) { server in
            let account = try await server.signUp()
            let purchase = TestPurchase.buy(TestCatalog.lifetime, on: server, id: transactionId, purchased: purchased)
            _ = try await server.upload(purchase.jws, token: account.token)
            _ = try await server.upload(purchase.refunded(at: purchased.addingTimeInterval(86_400), on: server).jws, token: account.token)
            #expect(try await server.entitlementIds(token: account.token) == [])
            let versionBefore = try await server.versions()[account.accountId]
            clock.advance(by: 3600)

            let response = try await Self.uploadReceipt(to: server, token: account.token)

            #expect(response.verdicts.map(\.verdict) == [.known], "Apple's refund already covers this transaction")
            #expect(response.snapshot.entitlements.isEmpty, "the refunded purchase stays revoked")
            #expect(try await server.entitlementIds(token: account.token) == [])
            #expect(try await server.versions()[account.accountId] == versionBefore)
        }
    }

    @Test("The same receipt uploaded again is known, stores nothing and bumps no version")
    func theSameReceiptAgainIsANoOp() async throws {
        let clock = TestClock()
        let transactionId = TestPurchase.nextId()
        let receiptEntry = ReceiptEntry(
            productId: TestCatalog.lifetime, transactionId: transactionId, originalTransactionId: transactionId,
            purchaseDateMs: String(clock.now().addingTimeInterval(-86_400).millisecondsSince1970))
        try await Self.withReceiptServer(clock: clock, entries: [receiptEntry]) { server in
            let account = try await server.signUp()
            let first = try await Self.uploadReceipt(to: server, token: account.token)
            #expect(first.verdicts.map(\.verdict) == [.accepted])
            #expect(first.snapshot.entitlements.map(\.entitlementId) == ["premium"])
            let rowsBefore = try await server.count("transactions")
            let versionBefore = try await server.versions()[account.accountId]

            for _ in 0..<3 {
                clock.advance(by: 600)
                let again = try await Self.uploadReceipt(to: server, token: account.token)
                #expect(again.verdicts.map(\.verdict) == [.known])
                #expect(again.snapshot.version == versionBefore)
            }
            #expect(try await server.count("transactions") == rowsBefore)
            #expect(try await server.versions()[account.accountId] == versionBefore)
        }
    }

    /// A live server whose verifyReceipt endpoints answer a receipt with these entries.
    private static func withReceiptServer(
        clock: TestClock, entries: [ReceiptEntry], _ body: @Sendable (TestServer) async throws -> Void
    ) async throws {
        // The bundle id every test signer writes, which every test server is configured with.
        let reply = AppStoreReceiptStandInReply.receipt(bundleId: "com.example.storesync", environment: .sandbox, inApp: entries)
        try await AppStoreReceiptStandIn.run(reply: { _ in reply }) { standIn in
            try await withLiveServer(clock: clock, configure: {
                $0.verifyReceiptURL = standIn.productionURL
                $0.verifyReceiptSandboxURL = standIn.sandboxURL
                $0.sharedSecret = "shared-secret"
            }) { server in try await body(server) }
        }
    }

    private static func uploadReceipt(to server: TestServer, token: String) async throws -> SyncResponse {
        let response = try await server.send(
            "POST", "/v1/transactions", token: token,
            json: UploadTransactionRequest(receipt: Data("an app receipt".utf8).base64EncodedString()))
        try #require(response.status == 200, "answered \(response.status): \(response.problem?.detail ?? "")")
        return try response.decode(SyncResponse.self)
    }
}
