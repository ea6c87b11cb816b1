import Foundation
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Finding 1: a dry run answers what would happen, and a signature only ever covers what is
/// stored, so its snapshot is an unsigned preview no device can keep as proof.
@Suite("Adversarial: dry-run previews") struct DryRunPreviewTests {
    @Test("A dry run of another account's purchase answers an unsigned preview, valid for no offline time")
    func aDryRunOfAnotherAccountsPurchaseIsAnUnsignedPreview() async throws {
        try await withLiveServer { server in
            let owner = try await server.signUp()
            let thief = try await server.signUp()
            let purchase = TestPurchase.buy(TestCatalog.lifetime, on: server)
            _ = try await server.upload(purchase.jws, token: owner.token)
            let rowsBefore = try await server.tableCounts()
            let versionsBefore = try await server.versions()

            let response = try await server.send(
                "POST", "/v1/restore", token: thief.token,
                json: RestoreRequest(entries: [entry(purchase)], userInitiated: true, dryRun: true))

            #expect(response.status == 200)
            let body = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
            let snapshotJSON = try #require(body["snapshot"] as? [String: Any])
            #expect(snapshotJSON["signature"] == nil, "a dry run's snapshot carries no signature")
            let preview = try response.decode(SyncResponse.self)
            #expect(preview.verdicts.map(\.verdict) == [.transferred], "it still answers what a real restore would do")
            #expect(preview.snapshot.entitlements.map(\.entitlementId) == ["premium"])
            #expect(preview.snapshot.validUntil == preview.snapshot.generatedAt, "a preview is valid for no offline time")
            #expect(try await server.tableCounts() == rowsBefore)
            #expect(try await server.versions() == versionsBefore)
            #expect(try await server.entitlementIds(token: thief.token) == [])
        }
    }

    @Test("The client returns a dry run's preview without trusting or caching it")
    func theClientNeverCachesAPreview() async throws {
        try await withLiveServer { server in
            let purchase = TestPurchase.buy(TestCatalog.lifetime, on: server)
            let owner = TestDevice(server: server)
            _ = try await owner.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            _ = try await owner.client.record(signedTransaction: purchase.jws)
            let store = InMemoryStore()
            let other = TestDevice(server: server, store: store)
            _ = try await other.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            // The device holds the JWS too; its upload is refused, the purchase being another account's.
            _ = try? await other.client.record(signedTransaction: purchase.jws)
            _ = try await other.client.refresh()
            let cacheBefore = store.contents

            let outcome = try await other.client.restore(userInitiated: true, dryRun: true)

            #expect(outcome.isDryRun)
            #expect(outcome.transfers.map(\.originalTransactionId) == [purchase.record.originalTransactionId])
            #expect(outcome.entitlements.map(\.entitlementId) == ["premium"], "the preview shows what the move would give")
            #expect(store.contents == cacheBefore, "the preview is not cached")
            #expect(await !other.client.isEntitled(to: "premium"), "the preview grants nothing on the device")
        }
    }
}
