import Foundation
import StoreSyncCore
import Testing

@Suite struct ExplanationTests {
    @Test func explainedEntitlementsMatchDerivedOnes() {
        let records = [
            Fixture.record("L", product: "lifetime", purchased: 0),
            Fixture.record("S", product: "monthly.pro", purchased: 0, expires: 30),
            Fixture.record("P", product: "pass30", purchased: 0),
        ]
        let ledger = Ledger(records: records)
        for day in [-1.0, 0, 10, 31, 100] {
            let at = Fixture.day(day)
            #expect(explainEntitlements(ledger: ledger, catalog: Fixture.catalog, at: at).entitlements
                == entitlements(ledger: ledger, catalog: Fixture.catalog, at: at))
        }
    }

    @Test func everyEntitlementHasExactlyOneGrantedExplanationNamingItsSource() {
        let records = [
            Fixture.record("L", product: "lifetime", purchased: 0),
            Fixture.record("S", product: "monthly.pro", purchased: 0, expires: 30),
            Fixture.record("P", product: "pass30", purchased: 0),
            Fixture.record("Q", product: "pass7", purchased: 1),
        ]
        let report = Fixture.report(records, at: 5)
        for entitlement in report.entitlements {
            let granted = report.explanations(for: entitlement.entitlementId).filter { $0.outcome == .granted }
            #expect(granted.count == 1)
            #expect(granted.first?.originalTransactionId == entitlement.originalTransactionId)
            #expect(granted.first?.expiresAt == entitlement.expiresAt)
        }
    }

    @Test func revokedExplanationNamesTheRefundedRecordAndDate() throws {
        let refunded = Fixture.record("1", product: "lifetime", purchased: 0, revoked: 3, signed: 3)
        let explanation = try #require(Fixture.report([refunded], at: 5).explanations.first)
        #expect(explanation.outcome == .revoked)
        #expect(explanation.decidingTransactionId == "1")
        #expect(explanation.reason.contains("2026-01-04T00:00:00.000Z"))
    }

    @Test func graceIsMentionedInTheReason() throws {
        let info = RenewalInfo(
            originalTransactionId: "10", autoRenewStatus: true, isInBillingRetryPeriod: true,
            gracePeriodExpiresDate: Fixture.day(36), signedDate: Fixture.day(30))
        let report = Fixture.report(
            [Fixture.record("10", product: "monthly", purchased: 0, expires: 30)], renewalInfos: [info], at: 33)
        let explanation = try #require(report.explanations.first)
        #expect(explanation.outcome == .granted)
        #expect(explanation.reason.contains("grace period until 2026-02-06T00:00:00.000Z"))
    }

    @Test func explanationsAreOrderedDeterministically() {
        let records = [
            Fixture.record("Z", product: "retired", purchased: 0),
            Fixture.record("B", product: "lifetime", purchased: 0),
            Fixture.record("A", product: "pass30", purchased: 0),
            Fixture.record("C", product: "lifetime", purchased: 1),
        ]
        let keys = Fixture.report(records, at: 5).explanations.map { "\($0.entitlementId ?? "-")/\($0.originalTransactionId)" }
        #expect(keys == ["-/Z", "premium/B", "premium/C", "season/A"])
    }

    @Test func explanationsRoundTripThroughJSON() throws {
        let report = Fixture.report([Fixture.record("1", product: "monthly", purchased: 0, expires: 30)], at: 40)
        let decoded = try JSONDecoder().decode(EntitlementReport.self, from: JSONEncoder().encode(report))
        #expect(decoded == report)
    }
}
