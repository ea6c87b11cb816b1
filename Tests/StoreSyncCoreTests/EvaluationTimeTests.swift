import Foundation
import StoreSyncCore
import Testing

@Suite struct EvaluationTimeTests {
    private let everything = [
        Fixture.record("L", product: "lifetime", purchased: 10),
        Fixture.record("S", product: "monthly", purchased: 10, expires: 40),
        Fixture.record("P", product: "pass30", purchased: 10),
        Fixture.record("C", product: "coins", purchased: 10),
    ]

    @Test func farPastGrantsNothingAndSaysNotYetStarted() {
        let report = explainEntitlements(ledger: Ledger(records: everything), catalog: Fixture.catalog, at: .distantPast)
        #expect(report.entitlements.isEmpty)
        let outcomes = Set(report.explanations.filter { $0.entitlementId != nil }.map(\.outcome))
        #expect(outcomes == [.notYetStarted])
    }

    @Test func farFutureKeepsOnlyLifetime() {
        let report = explainEntitlements(ledger: Ledger(records: everything), catalog: Fixture.catalog, at: .distantFuture)
        #expect(report.entitlements.map(\.originalTransactionId) == ["L"])
        #expect(report.explanations.first { $0.originalTransactionId == "S" }?.outcome == .expired)
        #expect(report.explanations.first { $0.originalTransactionId == "P" }?.outcome == .expired)
    }

    @Test(arguments: [9.0, 9.999])
    func justBeforeThePurchaseGrantsNothing(day: Double) {
        #expect(Fixture.entitlements(everything, at: day).isEmpty)
    }

    @Test func atTheMomentOfPurchaseAccessBegins() {
        #expect(Fixture.entitlements(everything, at: 10).map(\.entitlementId) == ["premium", "season"])
    }

    @Test func subscriptionRenewalNotYetMadeIsIgnoredInThePast() {
        let records = [
            Fixture.record("10", product: "monthly", purchased: 0, expires: 30),
            Fixture.record("20", original: "10", product: "monthly", purchased: 30, originallyPurchased: 0, expires: 60),
        ]
        #expect(Fixture.entitlements(records, at: 15).first?.expiresAt == Fixture.day(30))
    }
}
