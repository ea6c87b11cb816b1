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

    @Test("An older copy of the receipt sent after a newer one showed a refund does not bring the purchase back")
    func anOlderReceiptNeverUndoesARefundFromANewerOne() async throws {
        let clock = TestClock()
        let transactionId = TestPurchase.nextId()
        let purchased = clock.now().addingTimeInterval(-3 * 86_400)
        let bought = ReceiptEntry(
            productId: TestCatalog.lifetime, transactionId: transactionId, originalTransactionId: transactionId,
            purchaseDateMs: String(purchased.millisecondsSince1970))
        var refunded = bought
        refunded.cancellationDateMs = String(purchased.addingTimeInterval(86_400).millisecondsSince1970)
        refunded.cancellationReason = "0"
        // The iPhone still holds the copy made at the purchase; the iPad's was made after the refund.
        let copies: [String: AppStoreReceiptStandInReply] = [
            "made at the purchase": .receipt(
                bundleId: Self.bundleId, environment: .sandbox, inApp: [bought], createdAt: purchased),
            "made after the refund": .receipt(
                bundleId: Self.bundleId, environment: .sandbox, inApp: [refunded],
                createdAt: purchased.addingTimeInterval(2 * 86_400)),
        ]
        let reply: @Sendable (AppStoreReceiptStandInRequest) -> AppStoreReceiptStandInReply = { request in
            let copy = request.receiptData.flatMap { Data(base64Encoded: $0) }.map { String(decoding: $0, as: UTF8.self) }
            return copy.flatMap { copies[$0] } ?? .status(21002)
        }
        try await Self.withReceiptServer(clock: clock, reply: reply) { server in
            let account = try await server.signUp()
            let first = try await Self.uploadReceipt("made at the purchase", to: server, token: account.token)
            #expect(first.snapshot.entitlements.map(\.entitlementId) == ["premium"])
            clock.advance(by: 600)
            let fresh = try await Self.uploadReceipt("made after the refund", to: server, token: account.token)
            #expect(fresh.snapshot.entitlements.isEmpty, "the newer copy shows the refund")
            let versionBefore = try await server.versions()[account.accountId]
            clock.advance(by: 3600)

            let stale = try await Self.uploadReceipt("made at the purchase", to: server, token: account.token)

            #expect(stale.verdicts.map(\.verdict) == [.known], "the newer copy already covers this transaction")
            #expect(stale.snapshot.entitlements.isEmpty, "the refunded purchase stays revoked")
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

    /// The bundle id every test signer writes, which every test server is configured with.
    private static let bundleId = "com.example.storesync"

    /// A live server whose verifyReceipt endpoints answer any receipt with these entries.
    private static func withReceiptServer(
        clock: TestClock, entries: [ReceiptEntry], _ body: @Sendable (TestServer) async throws -> Void
    ) async throws {
        let reply = AppStoreReceiptStandInReply.receipt(bundleId: bundleId, environment: .sandbox, inApp: entries)
        try await withReceiptServer(clock: clock, reply: { _ in reply }, body)
    }

    /// A live server whose verifyReceipt endpoints answer each receipt with `reply`.
    private static func withReceiptServer(
        clock: TestClock, reply: @escaping @Sendable (AppStoreReceiptStandInRequest) -> AppStoreReceiptStandInReply,
        _ body: @Sendable (TestServer) async throws -> Void
    ) async throws {
        try await AppStoreReceiptStandIn.run(reply: reply) { standIn in
            try await withLiveServer(clock: clock, configure: {
                $0.verifyReceiptURL = standIn.productionURL
                $0.verifyReceiptSandboxURL = standIn.sandboxURL
                $0.sharedSecret = "shared-secret"
            }) { server in try await body(server) }
        }
    }

    private static func uploadReceipt(
        _ receipt: String = "an app receipt", to server: TestServer, token: String
    ) async throws -> SyncResponse {
        let response = try await server.send(
            "POST", "/v1/transactions", token: token,
            json: UploadTransactionRequest(receipt: Data(receipt.utf8).base64EncodedString()))
        try #require(response.status == 200, "answered \(response.status): \(response.problem?.detail ?? "")")
        return try response.decode(SyncResponse.self)
    }
}
