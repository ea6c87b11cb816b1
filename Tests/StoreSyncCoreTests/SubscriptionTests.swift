import Foundation
import StoreSyncCore
import Testing

@Suite struct SubscriptionTests {
    private let renewals = [
        Fixture.record("10", product: "monthly", purchased: 0, expires: 30),
        Fixture.record("20", original: "10", product: "monthly", purchased: 30, originallyPurchased: 0, expires: 60),
    ]

    @Test func activeUntilTheGreatestExpiry() throws {
        let granted = try #require(Fixture.entitlements(renewals, at: 45).first)
        #expect(granted.expiresAt == Fixture.day(60))
        #expect(granted.source == .autoRenewable)
        #expect(granted.originalTransactionId == "10")
        #expect(Fixture.entitlements(renewals, at: 60).isEmpty)
    }

    @Test func expiredSubscriptionReportsItsEnd() {
        let explanation = Fixture.report(renewals, at: 70).explanations.first
        #expect(explanation?.outcome == .expired)
        #expect(explanation?.expiresAt == Fixture.day(60))
        #expect(explanation?.decidingTransactionId == "20")
    }

    @Test func refundedRenewalFallsBackToThePaidPeriodBefore() {
        var refunded = renewals[1]
        refunded.revocationDate = Fixture.day(35)
        refunded.signedDate = Fixture.day(35)
        #expect(Fixture.entitlements([renewals[0], refunded], at: 36).isEmpty)
        #expect(Fixture.entitlements([renewals[0], refunded], at: 20).first?.expiresAt == Fixture.day(30))
    }

    @Test func upgradeWithinTheGroupGrantsTheNewTier() {
        let records = [
            Fixture.record("10", product: "monthly", purchased: 0, expires: 30, upgraded: true, signed: 10),
            Fixture.record("11", original: "10", product: "monthly.pro", purchased: 10, originallyPurchased: 0, expires: 40),
        ]
        let granted = Fixture.entitlements(records, at: 15)
        #expect(granted.map(\.entitlementId) == ["premium", "pro"])
        #expect(granted.allSatisfy { $0.productId == "monthly.pro" && $0.expiresAt == Fixture.day(40) })
    }

    @Test func upgradedRecordNeverNamesTheProduct() {
        let upgraded = Fixture.record("10", product: "monthly", purchased: 0, expires: 30, upgraded: true, signed: 10)
        let report = Fixture.report([upgraded], at: 15)
        #expect(report.entitlements.isEmpty)
        #expect(report.explanations.map(\.outcome) == [.upgraded])
    }

    @Test func downgradedTierIsExplainedAsReplaced() {
        let records = [
            Fixture.record("10", product: "monthly.pro", purchased: 0, expires: 30),
            Fixture.record("11", original: "10", product: "monthly", purchased: 30, originallyPurchased: 0, expires: 60),
        ]
        let report = Fixture.report(records, at: 40)
        #expect(report.entitlements.map(\.entitlementId) == ["premium"])
        let pro = report.explanations(for: "pro")
        #expect(pro.map(\.outcome) == [.expired])
        #expect(pro.first?.productId == "monthly.pro")
    }

    @Test func gracePeriodFromRenewalInfoKeepsAccess() throws {
        let expired = [Fixture.record("10", product: "monthly", purchased: 0, expires: 30)]
        let grace = RenewalInfo(
            originalTransactionId: "10", autoRenewStatus: true, isInBillingRetryPeriod: true,
            gracePeriodExpiresDate: Fixture.day(36), signedDate: Fixture.day(30))
        let granted = try #require(Fixture.entitlements(expired, renewalInfos: [grace], at: 33).first)
        #expect(granted.expiresAt == Fixture.day(36))
        #expect(Fixture.entitlements(expired, renewalInfos: [grace], at: 36).isEmpty)
    }

    @Test func billingRetryWithoutGraceEndUsesTheCatalogGracePeriod() {
        let expired = [Fixture.record("10", product: "monthly", purchased: 0, expires: 30)]
        let retrying = RenewalInfo(
            originalTransactionId: "10", autoRenewStatus: true, isInBillingRetryPeriod: true, signedDate: Fixture.day(30))
        #expect(Fixture.entitlements(expired, renewalInfos: [retrying], at: 40).first?.expiresAt == Fixture.day(46))
        #expect(Fixture.entitlements(expired, at: 40).isEmpty)
    }

    @Test func billingRetryOnProductWithoutGracePeriodGivesNone() {
        let expired = [Fixture.record("10", product: "monthly.pro", purchased: 0, expires: 30)]
        let retrying = RenewalInfo(
            originalTransactionId: "10", autoRenewStatus: true, isInBillingRetryPeriod: true, signedDate: Fixture.day(30))
        #expect(Fixture.entitlements(expired, renewalInfos: [retrying], at: 31).isEmpty)
    }

    @Test func subscriptionRecordWithoutExpiryGrantsNothing() {
        let broken = Fixture.record("10", product: "monthly", purchased: 0)
        let report = Fixture.report([broken], at: 1)
        #expect(report.entitlements.isEmpty)
        #expect(report.explanations.map(\.outcome) == [.expired])
    }

    @Test func familySharedSubscriptionIsMarked() {
        let shared = Fixture.record("10", product: "monthly", purchased: 0, expires: 30, ownership: .familyShared)
        #expect(Fixture.entitlements([shared], at: 1).map(\.ownershipType) == [.familyShared])
    }
}
