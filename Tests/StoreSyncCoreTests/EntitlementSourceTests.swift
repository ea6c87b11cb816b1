import Foundation
import StoreSyncCore
import Testing

@Suite struct EntitlementSourceTests {
    private let lifetime = Fixture.record("L", product: "lifetime", purchased: 0)
    private let subscription = Fixture.record("S", product: "monthly", purchased: 0, expires: 30)

    @Test func lifetimePlusExpiredSubscriptionStaysLifetime() throws {
        let granted = try #require(Fixture.entitlements([lifetime, subscription], at: 45).first)
        #expect(granted.originalTransactionId == "L")
        #expect(granted.isLifetime)
    }

    @Test func lifetimeBeatsAnActiveSubscription() {
        let report = Fixture.report([lifetime, subscription], at: 10)
        #expect(report.entitlements.map(\.originalTransactionId) == ["L"])
        let subscriptionExplanation = report.explanations(for: "premium").first { $0.originalTransactionId == "S" }
        #expect(subscriptionExplanation?.outcome == .superseded)
        #expect(subscriptionExplanation?.reason.contains("Purchase L") == true)
    }

    @Test func refundedProductNeverRemovesWhatAnotherStillGrants() {
        let refundedLifetime = Fixture.record("L", product: "lifetime", purchased: 0, revoked: 5, signed: 5)
        #expect(Fixture.entitlements([refundedLifetime, subscription], at: 10).map(\.originalTransactionId) == ["S"])
    }

    @Test func latestExpiryWinsAmongSubscriptions() {
        let later = Fixture.record("T", product: "monthly.pro", purchased: 5, expires: 35)
        let premium = Fixture.entitlements([subscription, later], at: 10).first { $0.entitlementId == "premium" }
        #expect(premium?.originalTransactionId == "T")
        #expect(premium?.expiresAt == Fixture.day(35))
    }

    @Test func anEntitlementCarriesTheEnvironmentOfThePurchaseThatGrantsIt() {
        let sandbox = Fixture.record("S", product: "lifetime", purchased: 0, environment: .sandbox)
        #expect(Fixture.entitlements([sandbox], at: 5).map(\.environment) == [.sandbox])
        let stacked = Fixture.record("N", product: "pass30", purchased: 0, environment: .sandbox)
        #expect(Fixture.entitlements([stacked], at: 5).map(\.environment) == [.sandbox])
    }

    @Test func productionBeatsSandboxAtEqualTerms() {
        let sandbox = Fixture.record("A", product: "lifetime", purchased: 0, environment: .sandbox)
        let production = Fixture.record("Z", product: "lifetime", purchased: 3)
        let granted = Fixture.entitlements([sandbox, production], at: 5)
        #expect(granted.map(\.originalTransactionId) == ["Z"])
        #expect(granted.map(\.environment) == [.production])
    }

    @Test func purchasedBeatsFamilySharedAtEqualTerms() {
        let shared = Fixture.record("A", product: "lifetime.family", purchased: 0, ownership: .familyShared)
        let bought = Fixture.record("Z", product: "lifetime", purchased: 3)
        let granted = Fixture.entitlements([shared, bought], at: 5)
        #expect(granted.map(\.originalTransactionId) == ["Z"])
        #expect(granted.map(\.ownershipType) == [.purchased])
    }

    @Test func equalSourcesTieBreakOnOriginalTransactionId() {
        let first = Fixture.record("A", product: "lifetime", purchased: 3)
        let second = Fixture.record("B", product: "lifetime.family", purchased: 0)
        #expect(Fixture.entitlements([second, first], at: 5).map(\.originalTransactionId) == ["A"])
    }

    @Test func stackedPassesCompeteWithSubscriptions() {
        let pass = Fixture.record("P", product: "pass30", purchased: 0)
        let season = Fixture.entitlements([pass, subscription], at: 10)
        #expect(season.map(\.entitlementId) == ["premium", "season"])
    }

    @Test func resultIsSortedByEntitlementId() {
        let records = [
            Fixture.record("P", product: "pass30", purchased: 0),
            Fixture.record("T", product: "monthly.pro", purchased: 0, expires: 30),
        ]
        #expect(Fixture.entitlements(records, at: 1).map(\.entitlementId) == ["premium", "pro", "season"])
    }
}
