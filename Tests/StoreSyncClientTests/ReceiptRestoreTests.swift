import AppStoreVerification
import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// `restore(receipt:)` for StoreKit 1 apps: the request it sends. The server's handling of
/// `receipt` on `POST /v1/restore` is tested with the server; the server here verifies
/// receipts against a stand-in that vouches for a lifetime purchase, so these tests hold
/// whether or not it reads the field.
@Suite struct ReceiptRestoreTests {
    private func withReceiptServer(_ body: @Sendable @escaping (TestServer) async throws -> Void) async throws {
        let entry = ReceiptEntry(
            productId: TestCatalog.lifetime, transactionId: "2000000001", originalTransactionId: "2000000001",
            purchaseDateMs: String(Date().addingTimeInterval(-3600).millisecondsSince1970))
        try await AppStoreReceiptStandIn.run(reply: { _ in
            .receipt(bundleId: "com.example.storesync", environment: .sandbox, inApp: [entry])
        }) { standIn in
            try await withLiveServer(configure: {
                $0.verifyReceiptURL = standIn.productionURL
                $0.verifyReceiptSandboxURL = standIn.sandboxURL
                $0.sharedSecret = "shared-secret"
            }, body)
        }
    }

    @Test func receiptTravelsBase64WithTheLedgerInAUserInitiatedRestore() async throws {
        try await withReceiptServer { server in
            let device = TestDevice(server: server)
            try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server)
            _ = try await device.client.record(signedTransaction: lifetime.jws)
            let receipt = Data((0..<300).map { UInt8($0 % 256) })

            let outcome = try await device.client.restore(receipt: receipt, userInitiated: true)
            let body = try #require(device.transport.jsonBodies(sentTo: "/v1/restore").last)
            #expect(body["receipt"] as? String == receipt.base64EncodedString())
            #expect(body["userInitiated"] as? Bool == true)
            #expect(body["dryRun"] as? Bool == false)
            let entries = try #require(body["entries"] as? [[String: Any]])
            #expect(entries.map { $0["transactionId"] as? String } == [lifetime.record.transactionId])
            #expect(!outcome.isDryRun)
            #expect(outcome.entitlements.map(\.entitlementId) == ["premium"])
            #expect(await device.client.isEntitled(to: "premium"))
        }
    }

    @Test func receiptDryRunChangesNothingOnTheDevice() async throws {
        try await withReceiptServer { server in
            let device = TestDevice(server: server)
            let session = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            let before = await device.client.entitlements()

            let preview = try await device.client.restore(receipt: Data("receipt".utf8), userInitiated: false, dryRun: true)
            let body = try #require(device.transport.jsonBodies(sentTo: "/v1/restore").last)
            #expect(body["dryRun"] as? Bool == true)
            #expect(body["userInitiated"] as? Bool == false)
            #expect(preview.isDryRun)
            #expect(await device.client.entitlements() == before)
            #expect(try await server.count("transactions") == 0)
            #expect(await device.client.ledger(in: .account(session.accountId)).isEmpty)
        }
    }

    @Test func receiptRestoreSignedOutSendsNothing() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            await #expect(throws: StoreSyncClientError.notSignedIn) {
                try await device.client.restore(receipt: Data("receipt".utf8))
            }
            #expect(device.transport.requests.isEmpty)
        }
    }
}
