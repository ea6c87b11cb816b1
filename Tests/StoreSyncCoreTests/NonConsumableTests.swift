import Foundation
import StoreSyncCore
import Testing

@Suite struct NonConsumableTests {
    @Test func purchaseGrantsForLife() throws {
        let granted = try #require(Fixture.entitlements([Fixture.record("1", product: "lifetime", purchased: 0)], at: 400).first)
        #expect(granted == Entitlement(
            entitlementId: "premium", productId: "lifetime", originalTransactionId: "1", expiresAt: nil,
            ownershipType: .purchased, source: .nonConsumable, environment: .production))
        #expect(granted.isLifetime)
    }

    @Test func restoreOnAnotherDeviceIsTheSamePurchase() {
        let deviceA = Ledger(records: [Fixture.record("1000", product: "lifetime", purchased: 0)])
        let deviceB = Ledger(records: [
            Fixture.record("2000", original: "1000", product: "lifetime", purchased: 40, originallyPurchased: 0),
        ])
        let merged = deviceA.merging(deviceB)
        #expect(merged.count == 2)
        #expect(merged.chains.count == 1)
        let report = explainEntitlements(ledger: merged, catalog: Fixture.catalog, at: Fixture.day(50))
        #expect(report.entitlements.map(\.originalTransactionId) == ["1000"])
        #expect(report.explanations(for: "premium").count == 1)
    }

    @Test func restoredRecordAloneCountsFromTheOriginalPurchaseDate() {
        let restored = Fixture.record("2000", original: "1000", product: "lifetime", purchased: 40, originallyPurchased: 0)
        #expect(Fixture.entitlements([restored], at: 10).map(\.originalTransactionId) == ["1000"])
    }

    @Test func anyRevokedRecordOfTheChainRevokesIt() {
        let records = [
            Fixture.record("1000", product: "lifetime", purchased: 0),
            Fixture.record("2000", original: "1000", product: "lifetime", purchased: 40, originallyPurchased: 0,
                           revoked: 45, signed: 45),
        ]
        #expect(Fixture.entitlements(records, at: 50).isEmpty)
        #expect(Fixture.report(records, at: 50).explanations.map(\.outcome) == [.revoked])
        #expect(Fixture.report(records, at: 50).explanations.first?.decidingTransactionId == "2000")
    }

    @Test func revocationAppliesEvenWhenEvaluatingBeforeIt() {
        let refunded = Fixture.record("1", product: "lifetime", purchased: 0, revoked: 30, signed: 30)
        #expect(Fixture.entitlements([refunded], at: 10).isEmpty)
    }

    @Test func familySharedChainIsMarked() {
        let shared = Fixture.record("1", product: "lifetime", purchased: 0, ownership: .familyShared)
        #expect(Fixture.entitlements([shared], at: 1).map(\.ownershipType) == [.familyShared])
    }

    @Test func familySharingEndedIsARevocation() {
        let shared = Fixture.record("1", product: "lifetime", purchased: 0, ownership: .familyShared)
        var ended = shared
        ended.revocationDate = Fixture.day(20)
        ended.signedDate = Fixture.day(20)
        #expect(Fixture.entitlements([shared, ended], at: 21).isEmpty)
    }

    @Test func productGrantingNoEntitlementIsExplained() {
        let report = Fixture.report([Fixture.record("1", product: "sticker", purchased: 0)], at: 1)
        #expect(report.entitlements.isEmpty)
        #expect(report.explanations.map(\.outcome) == [.noEntitlement])
        #expect(report.explanations.first?.entitlementId == nil)
    }
}
