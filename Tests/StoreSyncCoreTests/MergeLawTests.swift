import Foundation
import StoreSyncCore
import Testing

@Suite struct MergeLawTests {
    @Test func renewalSeenOnOneDeviceBeatsStaleCacheOnTheOther() {
        let stale = Fixture.record("1", product: "monthly", purchased: 0, expires: 30, signed: 0)
        let renewed = Fixture.record("1", product: "monthly", purchased: 0, expires: 60, signed: 30)
        let deviceA = Ledger(records: [stale])
        let deviceB = Ledger(records: [renewed])
        #expect(deviceA.merging(deviceB)["1"] == renewed)
        #expect(deviceB.merging(deviceA)["1"] == renewed)
    }

    @Test(arguments: [
        (Evidence.jws, Evidence.receipt(verifiedAt: Fixture.day(5))),
        (Evidence.jws, Evidence.unverifiedJWS),
        (Evidence.unverifiedJWS, Evidence.claim),
        (Evidence.jws, Evidence.claim),
        (Evidence.receipt(verifiedAt: Fixture.day(6)), Evidence.receipt(verifiedAt: Fixture.day(5))),
    ])
    func strongerEvidenceWinsAtTheSameSignedDate(stronger: Evidence, weaker: Evidence) {
        let strong = Fixture.record("1", product: "lifetime", purchased: 0, evidence: stronger)
        let weak = Fixture.record("1", product: "lifetime", purchased: 0, evidence: weaker)
        #expect(TransactionRecord.preferred(strong, weak) == strong)
        #expect(TransactionRecord.preferred(weak, strong) == strong)
    }

    @Test func laterSignedDateBeatsStrongerEvidence() {
        let olderJWS = Fixture.record("1", product: "lifetime", purchased: 0, signed: 0, evidence: .jws)
        let newerUnverified = Fixture.record("1", product: "lifetime", purchased: 0, signed: 1, evidence: .unverifiedJWS)
        #expect(TransactionRecord.preferred(olderJWS, newerUnverified) == newerUnverified)
        let olderReceipt = Fixture.record(
            "1", product: "lifetime", purchased: 0, signed: 0, evidence: .receipt(verifiedAt: Fixture.day(0)))
        let newerReceipt = Fixture.record(
            "1", product: "lifetime", purchased: 0, revoked: 1, signed: 1, evidence: .receipt(verifiedAt: Fixture.day(1)))
        #expect(TransactionRecord.preferred(olderReceipt, newerReceipt) == newerReceipt)
    }

    @Test func aReceiptVersionNeverReplacesAJWSWhateverItsDate() {
        let refund = Fixture.record("1", product: "lifetime", purchased: 0, revoked: 2, signed: 2, evidence: .jws)
        let laterReceipt = Fixture.record(
            "1", product: "lifetime", purchased: 0, signed: 40, evidence: .receipt(verifiedAt: Fixture.day(40)))
        #expect(TransactionRecord.preferred(refund, laterReceipt) == refund)
        #expect(TransactionRecord.preferred(laterReceipt, refund) == refund)
        #expect(Fixture.entitlements([refund, laterReceipt], at: 50).isEmpty, "an old receipt does not undo a refund")
    }

    @Test func claimNeverReplacesVerifiedVersionWhateverItsDate() {
        let verified = Fixture.record("1", product: "lifetime", purchased: 0, signed: 0, evidence: .jws)
        let laterClaim = Fixture.record("1", product: "lifetime", purchased: 0, revoked: 1, signed: 50, evidence: .claim)
        var ledger = Ledger(records: [verified])
        #expect(ledger.merge(laterClaim) == .unchanged)
        #expect(ledger["1"] == verified)
        #expect(Fixture.entitlements([verified, laterClaim], at: 10).map(\.entitlementId) == ["premium"])
    }

    @Test func copyCarryingTheJWSWinsOverEqualCopyWithout() {
        let bare = Fixture.record("1", product: "lifetime", purchased: 0)
        let carrying = Fixture.record("1", product: "lifetime", purchased: 0, signedTransaction: "header.payload.signature")
        #expect(Ledger(records: [bare]).merging(Ledger(records: [carrying]))["1"]?.signedTransaction
            == "header.payload.signature")
        #expect(Ledger(records: [carrying]).merging(Ledger(records: [bare]))["1"]?.signedTransaction
            == "header.payload.signature")
    }

    @Test func conflictingVersionsSignedAtTheSameMomentResolveTheSameWayEverywhere() {
        let shorter = Fixture.record("1", product: "monthly", purchased: 0, expires: 30, signed: 0)
        let longer = Fixture.record("1", product: "monthly", purchased: 0, expires: 31, signed: 0)
        let winner = TransactionRecord.preferred(shorter, longer)
        #expect(winner == TransactionRecord.preferred(longer, shorter))
        #expect(winner == longer)
    }

    @Test func mergeReportsWhatItDid() {
        var ledger = Ledger()
        let first = Fixture.record("1", product: "monthly", purchased: 0, expires: 30, signed: 0)
        let renewal = Fixture.record("1", product: "monthly", purchased: 0, expires: 60, signed: 30)
        #expect(ledger.merge(first) == .inserted)
        #expect(ledger.merge(first) == .unchanged)
        #expect(ledger.merge(renewal) == .replaced)
        #expect(ledger.merge(first) == .unchanged)
        #expect(ledger["1"] == renewal)
        #expect(ledger.count == 1)
    }

    @Test func renewalInfoMergesLastWriterWins() {
        let older = RenewalInfo(originalTransactionId: "1", autoRenewStatus: true, signedDate: Fixture.day(0))
        let newer = RenewalInfo(
            originalTransactionId: "1", autoRenewStatus: false, isInBillingRetryPeriod: true, signedDate: Fixture.day(3))
        var ledger = Ledger(records: [], renewalInfos: [newer])
        #expect(ledger.merge(older) == .unchanged)
        #expect(ledger.renewalInfo(for: "1") == newer)
        #expect(Ledger(records: [], renewalInfos: [older]).merging(ledger).renewalInfo(for: "1") == newer)
    }

    @Test func refundThenReversalEndsGrantedInAnyArrivalOrder() {
        let purchase = Fixture.record("1", product: "lifetime", purchased: 0, signed: 0)
        let refund = Fixture.record("1", product: "lifetime", purchased: 0, revoked: 5, signed: 5)
        let reversal = Fixture.record("1", product: "lifetime", purchased: 0, signed: 9)
        #expect(Fixture.entitlements([purchase, refund], at: 6).isEmpty)
        for order in [[purchase, refund, reversal], [reversal, refund, purchase], [refund, reversal, purchase]] {
            var ledger = Ledger()
            for version in order { ledger.merge(version) }
            #expect(ledger["1"]?.revocationDate == nil)
            #expect(entitlements(ledger: ledger, catalog: Fixture.catalog, at: Fixture.day(10)).map(\.entitlementId)
                == ["premium"])
        }
    }
}
