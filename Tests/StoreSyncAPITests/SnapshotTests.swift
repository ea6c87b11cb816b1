import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct SnapshotTests {
    @Test func transactionsNeverCarryTheirJWS() throws {
        #expect(WireFixture.subscription.signedTransaction != nil)
        #expect(WireFixture.snapshot.transactions.allSatisfy { $0.signedTransaction == nil })
        let json = try StoreSyncJSON.makeEncoder().encode(WireFixture.snapshot)
        #expect(!String(decoding: json, as: UTF8.self).contains("signedTransaction"))
    }

    @Test func decodingStripsAJWSSmuggledIntoTheTransactions() throws {
        var object = try JSONSerialization.jsonObject(
            with: StoreSyncJSON.makeEncoder().encode(WireFixture.snapshot)) as? [String: Any] ?? [:]
        var transactions = object["transactions"] as? [[String: Any]] ?? []
        transactions[0]["signedTransaction"] = "a.b.c"
        object["transactions"] = transactions
        let decoded = try StoreSyncJSON.makeDecoder().decode(
            Snapshot.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(decoded == WireFixture.snapshot)
    }

    @Test func missingSignatureDecodesAsUnsigned() throws {
        var object = try JSONSerialization.jsonObject(
            with: StoreSyncJSON.makeEncoder().encode(WireFixture.snapshot)) as? [String: Any] ?? [:]
        object["signature"] = nil
        let decoded = try StoreSyncJSON.makeDecoder().decode(
            Snapshot.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(decoded.signature.isEmpty)
    }

    @Test func entitlementHoldsWhileLifetimeOrUnexpired() {
        let snapshot = WireFixture.snapshot
        let expiry = WireFixture.instant.addingTimeInterval(30 * 86_400)
        #expect(snapshot.isEntitled(to: "premium", at: .distantFuture))
        #expect(snapshot.isEntitled(to: "pro", at: expiry.addingTimeInterval(-0.001)))
        #expect(!snapshot.isEntitled(to: "pro", at: expiry))
        #expect(!snapshot.isEntitled(to: "missing", at: WireFixture.instant))
        #expect(snapshot.entitlement("pro")?.productId == "monthly")
    }
}
