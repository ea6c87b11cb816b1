import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Finding 13: signed data is never refused only because Apple's vocabulary grew. A verified
/// transaction carrying values Apple adds later (a product `type`, an `inAppOwnershipType`, a
/// `transactionReason`, an offer type) or fields StoreSync does not know is stored with its raw
/// values, and the catalog decides what it grants.
@Suite("Adversarial: Apple's vocabulary grows") struct ForwardCompatibilityTests {
    static let futureType = "Future Type"

    /// A purchase of `productId` whose signed payload uses values and fields Apple has not
    /// defined yet.
    static func futurePurchase(of productId: String, on server: TestServer) throws -> TestPurchase {
        let purchase = TestPurchase.buy(productId, on: server, purchased: server.clock.now().addingTimeInterval(-60))
        return TestPurchase(record: purchase.record, jws: try futureJWS(of: purchase.record, on: server))
    }

    /// The JWS of a transaction version in Apple's future vocabulary.
    static func futureJWS(of record: TransactionRecord, on server: TestServer) throws -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        var payload = try #require(
            try JSONSerialization.jsonObject(with: encoder.encode(server.signer.transactionPayload(for: record)))
                as? [String: Any])
        payload["type"] = futureType
        payload["inAppOwnershipType"] = "FUTURE_OWNERSHIP"
        payload["transactionReason"] = "FUTURE_REASON"
        payload["offerType"] = 9
        payload["offerDiscountType"] = "FUTURE_DISCOUNT"
        payload["revocationType"] = "FUTURE_REVOCATION_TYPE"
        payload["futureObject"] = ["nested": [1, "two", NSNull()], "flag": true] as [String: Any]
        payload["futureNumber"] = 3.25
        return server.signer.sign(payload: try JSONSerialization.data(withJSONObject: payload, options: .sortedKeys))
    }

    @Test("An upload with a product type Apple added later is stored raw and granted as the catalog says")
    func aFutureProductTypeIsStoredAndTheCatalogDecides() async throws {
        try await withLiveServer { server in
            let account = try await server.signUp()
            let purchase = try Self.futurePurchase(of: TestCatalog.lifetime, on: server)

            let response = try await server.send(
                "POST", "/v1/transactions", token: account.token, json: UploadTransactionRequest(signedTransaction: purchase.jws))

            try #require(response.status == 200, "answered \(response.status): \(response.problem?.detail ?? "")")
            let answer = try response.decode(SyncResponse.self)
            #expect(answer.verdicts.map(\.verdict) == [.accepted])
            #expect(answer.snapshot.transactions.map(\.productType.rawValue) == [Self.futureType])
            #expect(answer.snapshot.entitlements.map(\.entitlementId) == ["premium"], "the catalog says lifetime grants premium")
            let stored = try await server.database.withConnection { connection in
                try await connection.query("SELECT product_type FROM transactions WHERE account_id = \(account.accountId)")
                    .map { try $0.decode(String.self) }
            }
            #expect(stored == [Self.futureType])

            // A device sends the transaction back as its snapshot gave it, raw type included.
            var sent = try #require(
                try JSONSerialization.jsonObject(with: StoreSyncJSON.makeEncoder().encode(entry(purchase))) as? [String: Any])
            sent["productType"] = Self.futureType
            let body = try JSONSerialization.data(withJSONObject: ["entries": [sent]])
            let again = try await server.send("POST", "/v1/restore", token: account.token, body: body)
            try #require(again.status == 200, "answered \(again.status): \(again.problem?.detail ?? "")")
            #expect(try again.decode(SyncResponse.self).verdicts.map(\.verdict) == [.known], "the raw type round-trips")
        }
    }

    @Test("An entry whose productType contradicts its own JWS is rejected and changes nothing")
    func anEntryContradictingItsJWSIsRejected() async throws {
        try await withLiveServer(configure: { $0.transferPolicy = .transfer }) { server in
            let owner = try await server.signUp()
            let other = try await server.signUp()
            let purchase = TestPurchase.buy(TestCatalog.lifetime, on: server)
            _ = try await server.upload(purchase.jws, token: owner.token)
            var sent = try #require(
                try JSONSerialization.jsonObject(with: StoreSyncJSON.makeEncoder().encode(entry(purchase))) as? [String: Any])
            sent["productType"] = "lifetimeForFree"
            let rowsBefore = try await server.tableCounts()
            let versionsBefore = try await server.versions()

            let body = try JSONSerialization.data(withJSONObject: ["entries": [sent], "userInitiated": true])
            let response = try await server.send("POST", "/v1/restore", token: other.token, body: body)

            try #require(response.status == 200, "answered \(response.status): \(response.problem?.detail ?? "")")
            #expect(try response.decode(SyncResponse.self).verdicts.map(\.verdict) == [.rejected])
            #expect(try await server.tableCounts() == rowsBefore)
            #expect(try await server.versions() == versionsBefore)
            #expect(try await server.owner(of: purchase.record.originalTransactionId) == owner.accountId)
        }
    }

    @Test("A refund notification for such a transaction is processed")
    func aNotificationWithAFutureTypeIsProcessed() async throws {
        try await withLiveServer { server in
            let account = try await server.signUp()
            let purchase = try Self.futurePurchase(of: TestCatalog.lifetime, on: server)
            _ = try await server.upload(purchase.jws, token: account.token)
            var refunded = purchase.record
            refunded.revocationDate = server.clock.now()
            refunded.revocationReason = .other
            refunded.signedDate = server.clock.now()

            let data = NotificationData(
                appAppleId: server.signer.appAppleId, bundleId: server.signer.bundleId, bundleVersion: "1",
                environment: AppStoreEnvironment.sandbox.appleName,
                signedTransactionInfo: try Self.futureJWS(of: refunded, on: server))
            let notification = server.signer.sign(NotificationPayload(
                notificationType: .refund, notificationUUID: UUID(), data: data, signedDate: server.clock.now()))

            let notified = try await server.send(
                "POST", "/v1/notifications/appstore", json: NotificationRequest(signedPayload: notification))

            #expect(notified.status == 200, "\(notified.problem?.detail ?? "")")
            #expect(try await server.entitlementIds(token: account.token) == [])
        }
    }

    @Test("The client records such a transaction and trusts the snapshot that carries it")
    func theClientDecodesASnapshotWithAFutureType() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            _ = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            let purchase = try Self.futurePurchase(of: TestCatalog.lifetime, on: server)

            _ = try await device.client.record(signedTransaction: purchase.jws)
            _ = try await device.client.refresh()
            let relaunched = device.relaunched(on: server)

            #expect(await device.client.isEntitled(to: "premium"))
            #expect(await relaunched.client.isEntitled(to: "premium"), "the cached snapshot decodes and verifies after a relaunch")
            let restored = try await relaunched.client.restore(userInitiated: false)
            #expect(restored.verdicts.map(\.verdict) == [.known], "the cached transaction goes back to the server as it came")
        }
    }
}
