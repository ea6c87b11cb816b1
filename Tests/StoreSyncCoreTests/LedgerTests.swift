import Foundation
import StoreSyncCore
import Testing

@Suite struct LedgerTests {
    @Test func recordsAreOrderedByTransactionIdBytes() {
        let ledger = Ledger(records: ["b", "B", "a", "é", "10", "9"].map {
            Fixture.record($0, product: "lifetime", purchased: 0)
        })
        #expect(ledger.records.map(\.transactionId) == ["10", "9", "B", "a", "b", "é"])
    }

    @Test func keysThatStringCallsEqualButDifferInBytesStayDistinct() {
        let composed = Fixture.record("caf\u{E9}", product: "lifetime", purchased: 0)
        let decomposed = Fixture.record("cafe\u{301}", product: "lifetime", purchased: 0)
        let ledger = Ledger(records: [composed, decomposed])
        #expect(ledger.count == 2)
        #expect(ledger.chains.count == 2)
    }

    @Test func removeDropsOneTransaction() {
        var ledger = Ledger(records: [
            Fixture.record("1", product: "lifetime", purchased: 0),
            Fixture.record("2", product: "coins", purchased: 0),
        ])
        #expect(ledger.remove(transactionId: "2")?.productId == "coins")
        #expect(ledger.remove(transactionId: "2") == nil)
        #expect(ledger.count == 1)
        #expect(ledger["2"] == nil)
    }

    @Test func emptyLedgerHasNothing() {
        let ledger = Ledger()
        #expect(ledger.isEmpty)
        #expect(ledger.count == 0)
        #expect(ledger.chains.isEmpty)
        #expect(entitlements(ledger: ledger, catalog: Fixture.catalog, at: Fixture.day(0)).isEmpty)
    }

    @Test func ledgerWithOnlyRenewalInfoIsNotEmpty() {
        let info = RenewalInfo(originalTransactionId: "1", autoRenewStatus: true, signedDate: Fixture.day(0))
        #expect(!Ledger(records: [], renewalInfos: [info]).isEmpty)
    }

    @Test func chainsGroupByOriginalTransactionId() throws {
        let ledger = Ledger(records: [
            Fixture.record("30", original: "10", product: "monthly", purchased: 60, expires: 90),
            Fixture.record("10", product: "monthly", purchased: 0, expires: 30),
            Fixture.record("20", original: "10", product: "monthly", purchased: 30, expires: 60),
            Fixture.record("5", product: "lifetime", purchased: 3),
        ])
        #expect(ledger.chains.map(\.originalTransactionId) == ["10", "5"])
        let subscription = try #require(ledger.chains.first)
        #expect(subscription.records.map(\.transactionId) == ["10", "20", "30"])
        #expect(subscription.latestRecord?.transactionId == "30")
        #expect(subscription.purchaseDate == Fixture.day(0))
        #expect(ledger.chain("10").map(\.transactionId) == ["10", "20", "30"])
        #expect(ledger.chain("missing").isEmpty)
    }

    @Test func chainHelpersIgnoreClaimsWhenVerifiedRecordsExist() {
        let chain = PurchaseChain(originalTransactionId: "1", records: [
            Fixture.record("1", product: "lifetime", purchased: 5),
            Fixture.record("2", original: "1", product: "lifetime", purchased: 9, originallyPurchased: 1,
                           revoked: 10, evidence: .claim),
        ])
        #expect(!chain.isRevoked)
        #expect(!chain.isClaimOnly)
        #expect(chain.purchaseDate == Fixture.day(5))
        #expect(chain.latestRecord?.transactionId == "1")
        #expect(chain.productIds == ["lifetime"])
    }
}
