import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting
import Testing

/// One wire value and the checks every wire type must pass.
struct WireSample: Sendable, CustomStringConvertible {
    let description: String
    let check: @Sendable () throws -> Void

    init<Value: Codable & Hashable & Sendable>(_ value: Value) {
        description = String(describing: Value.self)
        check = {
            let json = try StoreSyncJSON.makeEncoder().encode(value)
            let decoded = try StoreSyncJSON.makeDecoder().decode(Value.self, from: json)
            #expect(decoded == value, "JSON round trip of \(Value.self)")
            #expect(try StoreSyncJSON.makeEncoder().encode(decoded) == json, "equal \(Value.self) values give identical JSON")
        }
    }

    static let all: [WireSample] = [
        WireSample(WireFixture.subscription),
        WireSample(WireFixture.refunded),
        WireSample(WireFixture.claim),
        WireSample(WireFixture.lifetime),
        WireSample(WireFixture.expiring),
        WireSample(WireFixture.snapshot),
        WireSample(WireFixture.snapshot.signed("")),
        WireSample(WireFixture.verdicts),
        WireSample(Problem(.ownedByOtherAccount, detail: "Purchase 1000 belongs to another account.")),
        WireSample(Problem(.invalidRequest, detail: "Bad date.", instance: "/v1/restore", field: "entries[0].purchaseDate")),
        WireSample(Credentials(email: "a@example.com", password: "correct horse battery staple")),
        WireSample(Credentials(email: "a@example.com", password: "pw", deviceName: "iPad", deviceId: WireFixture.accountId)),
        WireSample(SessionResponse(
            accountId: WireFixture.accountId, appAccountToken: WireFixture.otherAccountId, token: "dG9rZW4",
            deviceId: WireFixture.accountId)),
        WireSample(CatalogResponse(products: [
            CatalogProduct(productId: "lifetime", type: .nonConsumable, entitlements: ["premium"]),
            CatalogProduct(productId: "pass30", type: .nonRenewing, entitlements: ["season"], durationSeconds: 2_592_000),
            CatalogProduct(
                productId: "monthly", type: .autoRenewable, entitlements: ["premium", "pro"],
                subscriptionGroupId: "group", gracePeriodSeconds: 1_382_400),
        ])),
        WireSample(UploadTransactionRequest(signedTransaction: "a.b.c")),
        WireSample(UploadTransactionRequest(receipt: "TUlJVA==")),
        WireSample(RestoreRequest(entries: [WireFixture.subscription, WireFixture.claim])),
        WireSample(RestoreRequest(
            entries: [], legacyFlags: ["lifetime": true, "old.product": false], userInitiated: true, dryRun: true)),
        WireSample(SyncResponse(verdicts: WireFixture.verdicts, snapshot: WireFixture.snapshot)),
        WireSample(NotificationRequest(signedPayload: "x.y.z")),
        WireSample(PurchaseHistory(
            originalTransactionId: "1000", ownerAccountId: WireFixture.accountId, environment: .sandbox,
            transactions: [WireFixture.refunded], events: [WireFixture.event])),
        WireSample(PurchaseHistory(originalTransactionId: "1", transactions: [], events: [])),
        WireSample(WireFixture.event),
        WireSample(PurchaseEvent(eventId: 1, accountId: WireFixture.accountId, kind: "revoked",
                                 originalTransactionId: "1000", reason: "refund", occurredAt: WireFixture.instant)),
        WireSample(SigningKeyResponse(publicKey: "MCowBQYDK2VwAyEAGb9ECWmEzf6FQbrBZ9w7lshQhqowtrbLDFw4rXAxZuE=")),
    ]
}

@Suite struct WireRoundTripTests {
    @Test(arguments: WireSample.all)
    func roundTripsAndEncodesDeterministically(sample: WireSample) throws {
        try sample.check()
    }

    @Test func transactionRecordWireNamesFollowTheDesign() throws {
        let object = try JSONSerialization.jsonObject(with: StoreSyncJSON.makeEncoder().encode(WireFixture.subscription)) as? [String: Any]
        #expect(Set((object ?? [:]).keys) == [
            "transactionId", "originalTransactionId", "productId", "productType", "purchaseDate", "originalPurchaseDate",
            "expiresDate", "isUpgraded", "ownershipType", "environment", "appAccountToken", "quantity", "signedDate",
            "subscriptionGroupId", "evidence", "signedTransaction",
        ])
    }

    @Test func recordWithUnknownEvidenceIsRejected() throws {
        var object = try JSONSerialization.jsonObject(
            with: StoreSyncJSON.makeEncoder().encode(WireFixture.claim)) as? [String: Any] ?? [:]
        object["evidence"] = "trust-me"
        let body = try JSONSerialization.data(withJSONObject: object)
        #expect(throws: DecodingError.self) { try StoreSyncJSON.makeDecoder().decode(TransactionRecord.self, from: body) }
    }
}
