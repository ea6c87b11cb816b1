import Foundation
@testable import StoreSyncServer
import StoreSyncCore
import Testing

/// A restore writes only the versions its presenter does not hold yet: the rest would
/// conflict with the table's key (account, transaction, signed date, evidence) and change
/// nothing.
@Suite struct UnstoredVersionsTests {
    let presenter = UUID()
    let other = UUID()
    let now = Date(timeIntervalSince1970: 1_795_342_530)

    @Test func versionsThePresenterHoldsAreLeftOutAndEveryOtherVersionIsWritten() {
        let held = TestPurchases.record(purchased: now)
        var resigned = held
        resigned.signedDate = now.addingTimeInterval(60)
        var fromReceipt = held
        fromReceipt.evidence = .receipt(verifiedAt: now)
        var sameKeyOtherText = held
        sameKeyOtherText.signedTransaction = "another copy of the same version"
        let new = TestPurchases.record(purchased: now)
        let before = Ledger(records: [held])

        let planned: [(accountId: UUID, record: TransactionRecord)] = [
            (presenter, held), (presenter, sameKeyOtherText), (presenter, resigned), (presenter, fromReceipt),
            (presenter, new), (other, held),
        ]
        let written = SyncTransaction.unstored(planned, presenter: presenter, before: before)
        #expect(written.map(\.accountId) == [presenter, presenter, other], "a receipt version never replaces a JWS")
        #expect(written.map(\.record) == [resigned, new, held])
    }

    @Test func aReceiptVersionIsWrittenOnlyWhenItSaysSomethingNew() {
        var held = TestPurchases.record(purchased: now)
        held.evidence = .receipt(verifiedAt: now)
        held.signedDate = now
        var again = held
        again.evidence = .receipt(verifiedAt: now.addingTimeInterval(600))
        again.signedDate = now.addingTimeInterval(600)
        var refunded = again
        refunded.revocationDate = now.addingTimeInterval(300)
        refunded.revocationReason = .other
        let before = Ledger(records: [held])

        let planned: [(accountId: UUID, record: TransactionRecord)] = [(presenter, again), (presenter, refunded)]
        let written = SyncTransaction.unstored(planned, presenter: presenter, before: before)

        #expect(written.map(\.record) == [refunded], "the same receipt answered again changes nothing")
    }

    @Test func aPresenterWithoutTransactionsWritesEverything() {
        let planned = [(accountId: presenter, record: TestPurchases.record(purchased: now))]
        #expect(SyncTransaction.unstored(planned, presenter: presenter, before: Ledger()).count == 1)
    }
}
