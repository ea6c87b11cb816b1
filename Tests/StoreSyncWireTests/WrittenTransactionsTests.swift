import Foundation
import PropertyBased
import StoreSyncAPI
import StoreSyncCore
import StoreSyncWire
import Testing

/// A snapshot's transactions written ahead, straight from a ledger's records (the server does
/// it on another core for long histories), give the very bytes of writing them in place: the
/// signature covers the same bytes whichever way the body was made.
@Suite struct WrittenTransactionsTests {
    /// Records as a ledger holds them: some carry their JWS, which a snapshot never does.
    static let ledgerRecords = zip(SnapshotGenerators.record, SnapshotGenerators.text.optional()).map { record, text in
        var withText = record
        withText.signedTransaction = text
        return withText
    }

    static let snapshotParts = zip(
        Gen.int64(), SnapshotGenerators.instant, SnapshotGenerators.entitlement.array(of: 0...3), ledgerRecords.array(of: 0...6))

    @Test func aBodyWithItsTransactionsWrittenAheadIsTheBodyWrittenInPlace() async {
        await propertyCheck(count: 200, input: Self.snapshotParts) { version, generatedAt, entitlements, records in
            let snapshot = Snapshot(
                accountId: UUID(), version: version, generatedAt: generatedAt, validUntil: generatedAt,
                entitlements: entitlements, transactions: records)
            let written = try WrittenTransactions(records)
            let (inPlace, ahead) = (SignedBytesTests.RecordingSigner(), SignedBytesTests.RecordingSigner())
            let body = try snapshot.body(signedBy: inPlace.sign)
            #expect(try snapshot.body(signedBy: ahead.sign, transactions: written) == body)
            #expect(ahead.handed == inPlace.handed)
            #expect(ahead.handed == [try snapshot.signedBytes()])
        }
    }

    /// `Snapshot.init` keeps an array without JWS as it is and strips those that carry one.
    @Test func aSnapshotHoldsItsTransactionsWithoutTheirJWS() async {
        await propertyCheck(count: 100, input: Self.ledgerRecords.array(of: 0...6)) { records in
            let snapshot = Snapshot(
                accountId: UUID(), version: 1, generatedAt: Date(timeIntervalSince1970: 0),
                validUntil: Date(timeIntervalSince1970: 0), entitlements: [], transactions: records)
            #expect(snapshot.transactions.allSatisfy { $0.signedTransaction == nil })
            let stripped = records.map { record in
                var copy = record
                copy.signedTransaction = nil
                return copy
            }
            #expect(snapshot.transactions == stripped)
        }
    }
}
