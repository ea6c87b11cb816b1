import AppStoreVerification
import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// `restore(receipt:)` for StoreKit 1 apps, end to end: the app receipt travels base64 to a
/// live server, which has a stand-in of Apple's verifyReceipt vouch for it; the receipt's
/// purchases come back in the verified snapshot, the device's cache and its entitlements.
@Suite struct ReceiptRestoreTests {
    /// The receipt the device reads from `Bundle.main.appStoreReceiptURL`: any bytes, as far
    /// as the server is concerned; Apple's stand-in reads it.
    private static let receipt = Data((0..<300).map { UInt8($0 % 256) })

    /// Runs `body` against a live server whose verifyReceipt stand-in answers `reply`.
    private func withReceiptServer(
        reply: @escaping @Sendable (AppStoreReceiptStandInRequest) -> AppStoreReceiptStandInReply,
        _ body: @Sendable @escaping (TestServer, AppStoreReceiptStandIn) async throws -> Void
    ) async throws {
        try await AppStoreReceiptStandIn.run(reply: reply) { standIn in
            try await withLiveServer(configure: {
                $0.verifyReceiptURL = standIn.productionURL
                $0.verifyReceiptSandboxURL = standIn.sandboxURL
                $0.sharedSecret = "shared-secret"
            }) { server in try await body(server, standIn) }
        }
    }

    /// Apple's answer for ``receipt``: a lifetime purchase bought an hour ago, in the sandbox
    /// (production answers 21007 first, as it does for TestFlight and App Review).
    private static func vouchingForLifetime(_ transactionId: String) -> @Sendable (AppStoreReceiptStandInRequest) -> AppStoreReceiptStandInReply {
        let entry = ReceiptEntry(
            productId: TestCatalog.lifetime, transactionId: transactionId, originalTransactionId: transactionId,
            purchaseDateMs: String(Date().addingTimeInterval(-3600).millisecondsSince1970))
        return { request in
            guard request.receiptData == receipt.base64EncodedString() else { return .status(21002) }
            return request.endpoint == .production
                ? .status(21007) : .receipt(bundleId: "com.example.storesync", environment: .sandbox, inApp: [entry])
        }
    }

    @Test func aStoreKit1AppRestoresItsReceiptsPurchasesIntoTheAccountAndTheCache() async throws {
        let transactionId = TestPurchase.nextId()
        try await withReceiptServer(reply: Self.vouchingForLifetime(transactionId)) { server, standIn in
            let device = TestDevice(server: server)
            let email = TestAccount.email()
            let session = try await device.client.signUp(email: email, password: TestAccount.password)
            #expect(await device.client.isEntitled(to: "premium") == false)

            let outcome = try await device.client.restore(receipt: Self.receipt, userInitiated: true)

            let body = try #require(device.transport.jsonBodies(sentTo: "/v1/restore").last)
            #expect(body["receipt"] as? String == Self.receipt.base64EncodedString())
            #expect(body["userInitiated"] as? Bool == true)
            #expect(await standIn.requests.map(\.endpoint) == [.production, .sandbox])
            #expect(outcome.verdicts.map(\.verdict) == [.accepted])
            #expect(outcome.verdicts.map(\.transactionId) == [transactionId])
            #expect(outcome.entitlements.map(\.entitlementId) == ["premium"])
            #expect(outcome.droppedTransactionIds.isEmpty)
            #expect(await device.client.isEntitled(to: "premium"))
            let cached = try #require(await device.client.ledger(in: .account(session.accountId))[transactionId])
            if case .receipt = cached.evidence {} else { Issue.record("the cached evidence is \(cached.evidence)") }
            #expect(try await server.owner(of: transactionId) == session.accountId)

            // The purchase now follows the account: another device restores it without a receipt.
            let tablet = TestDevice(server: server)
            try await tablet.client.signIn(email: email, password: TestAccount.password)
            _ = try await tablet.client.restore()
            #expect(await tablet.client.isEntitled(to: "premium"))
        }
    }

    @Test func aReceiptAppleRejectsThrowsInvalidInputNamingTheReceiptAndChangesNothing() async throws {
        try await withReceiptServer(reply: { _ in .status(21010) }) { server, _ in
            let device = TestDevice(server: server)
            let session = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            let season = TestPurchase.buy(TestCatalog.seasonPass, on: server)
            _ = try await device.client.record(signedTransaction: season.jws)
            let before = await device.client.ledger(in: .account(session.accountId))

            do {
                _ = try await device.client.restore(receipt: Self.receipt, userInitiated: true)
                Issue.record("a rejected receipt restored")
            } catch StoreSyncClientError.invalidInput(let problem) {
                #expect(problem.type == ProblemType.receiptRejected.uri)
                #expect(problem.field == "receipt")
            }
            #expect(await device.client.ledger(in: .account(session.accountId)) == before)
            #expect(try await server.count("transactions") == 1)
        }
    }

    @Test func receiptDryRunChangesNothingOnTheDeviceOrTheServer() async throws {
        let transactionId = TestPurchase.nextId()
        try await withReceiptServer(reply: Self.vouchingForLifetime(transactionId)) { server, _ in
            let device = TestDevice(server: server)
            let session = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            let before = await device.client.entitlements()

            let preview = try await device.client.restore(receipt: Self.receipt, userInitiated: false, dryRun: true)
            let body = try #require(device.transport.jsonBodies(sentTo: "/v1/restore").last)
            #expect(body["dryRun"] as? Bool == true)
            #expect(preview.isDryRun)
            #expect(preview.verdicts.map(\.verdict) == [.accepted])
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
