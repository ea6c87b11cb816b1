import Foundation
import StoreSyncCore
import Testing

@Suite struct ConsumableAndClaimTests {
    @Test func consumablesNeverEntitleButKeepTheirQuantity() {
        let coins = Fixture.record("1", product: "coins", purchased: 0, quantity: 5)
        let report = Fixture.report([coins], at: 1)
        #expect(report.entitlements.isEmpty)
        #expect(Ledger(records: [coins])["1"]?.quantity == 5)
        #expect(report.explanations.map(\.outcome) == [.consumable])
        #expect(report.explanations.first?.reason.contains("quantity 5") == true)
    }

    @Test func claimsNeverGrant() {
        let claim = Fixture.record("claim-lifetime", product: "lifetime", purchased: 0, evidence: .claim)
        let report = Fixture.report([claim], at: 10)
        #expect(report.entitlements.isEmpty)
        #expect(report.explanations.map(\.outcome) == [.claimOnly])
        #expect(report.explanations.first?.entitlementId == "premium")
    }

    @Test func claimNeverRevokesOrExpiresAVerifiedChain() {
        let records = [
            Fixture.record("1", product: "lifetime", purchased: 0),
            Fixture.record("2", original: "1", product: "lifetime", purchased: 5, revoked: 6, evidence: .claim),
        ]
        #expect(Fixture.entitlements(records, at: 10).map(\.entitlementId) == ["premium"])
    }

    @Test func unverifiedJWSFromTheDevelopmentSwitchGrants() {
        let unverified = Fixture.record("1", product: "lifetime", purchased: 0, evidence: .unverifiedJWS)
        #expect(Fixture.entitlements([unverified], at: 1).count == 1)
    }

    @Test func unknownProductGrantsNothingButIsExplained() {
        let report = Fixture.report([Fixture.record("1", product: "retired.product", purchased: 0)], at: 1)
        #expect(report.entitlements.isEmpty)
        let explanation = report.explanations.first
        #expect(explanation?.outcome == .unknownProduct)
        #expect(explanation?.entitlementId == nil)
        #expect(explanation?.productId == "retired.product")
    }

    @Test func recordWhoseTypeDisagreesWithTheCatalogGrantsNothing() {
        let mislabelled = Fixture.record("1", product: "monthly", type: .nonConsumable, purchased: 0)
        let report = Fixture.report([mislabelled], at: 1)
        #expect(report.entitlements.isEmpty)
        #expect(report.explanations.map(\.outcome) == [.productTypeMismatch])
    }
}
