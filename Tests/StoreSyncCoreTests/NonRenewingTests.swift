import Foundation
import StoreSyncCore
import Testing

@Suite struct NonRenewingTests {
    private let deviceA = Fixture.record("a1", product: "pass30", purchased: 0)
    private let deviceB = Fixture.record("b1", product: "pass30", purchased: 10)

    @Test func twoPurchasesOnTwoDevicesStackToTheSumOfTheirDurations() throws {
        let merged = Ledger(records: [deviceA]).merging(Ledger(records: [deviceB]))
        let granted = try #require(entitlements(ledger: merged, catalog: Fixture.catalog, at: Fixture.day(20)).first)
        #expect(granted.expiresAt == Fixture.day(60))
        #expect(granted.originalTransactionId == "a1")
        #expect(granted.source == .nonRenewing)
    }

    @Test func entitlementNamesThePurchaseWhosePeriodIsRunning() {
        #expect(Fixture.entitlements([deviceA, deviceB], at: 40).first?.originalTransactionId == "b1")
        #expect(Fixture.entitlements([deviceA, deviceB], at: 60).isEmpty)
    }

    @Test func restoredCopyOfOnePurchaseCountsOnce() {
        let restored = Fixture.record("a2", original: "a1", product: "pass30", purchased: 5, originallyPurchased: 0)
        #expect(Fixture.entitlements([deviceA, restored], at: 20).first?.expiresAt == Fixture.day(30))
    }

    @Test func eachProductLastsItsOwnDuration() {
        let week = Fixture.record("c1", product: "pass7", purchased: 1)
        #expect(Fixture.entitlements([deviceA, week], at: 2).first?.expiresAt == Fixture.day(37))
    }

    @Test func revokedPurchaseIsSkippedAndLaterOnesMoveUp() {
        let refunded = Fixture.record("a1", product: "pass30", purchased: 0, revoked: 2, signed: 2)
        #expect(Fixture.entitlements([refunded, deviceB], at: 20).first?.expiresAt == Fixture.day(40))
    }

    @Test func purchaseAfterAGapStartsANewInterval() throws {
        let late = Fixture.record("c1", product: "pass30", purchased: 100)
        #expect(Fixture.entitlements([deviceA, deviceB, late], at: 80).isEmpty)
        let granted = try #require(Fixture.entitlements([deviceA, deviceB, late], at: 105).first)
        #expect(granted.expiresAt == Fixture.day(130))
        #expect(granted.originalTransactionId == "c1")
    }

    @Test func futurePurchaseDoesNotGrantEarlier() {
        #expect(Fixture.entitlements([deviceA, deviceB], at: 5).first?.expiresAt == Fixture.day(30))
        #expect(Fixture.entitlements([deviceB], at: 5).isEmpty)
    }

    @Test func stackIsExplainedPurchaseByPurchase() {
        let late = Fixture.record("c1", product: "pass7", purchased: 12)
        let report = Fixture.report([deviceA, deviceB, late], at: 35)
        let outcomes = report.explanations(for: "season").map { [$0.originalTransactionId: $0.outcome] }
        #expect(outcomes == [["a1": .expired], ["b1": .granted], ["c1": .queued]])
        #expect(report.explanations(for: "season").first { $0.outcome == .granted }?.expiresAt == Fixture.day(67))
    }

    @Test func productWithoutDurationGrantsNothing() {
        let report = Fixture.report([Fixture.record("1", product: "pass.broken", purchased: 0)], at: 1)
        #expect(report.entitlements.isEmpty)
        #expect(report.explanations.map(\.outcome) == [.missingDuration])
    }
}
