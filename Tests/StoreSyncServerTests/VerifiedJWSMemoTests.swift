import Foundation
import StoreSyncCore
import Testing

@testable import StoreSyncServer

/// The memo answers only for a text byte for byte equal to one it remembered, whatever its
/// filing key (the length and last 16 bytes) says.
@Suite struct VerifiedJWSMemoTests {
    private func record(_ jws: String) -> TransactionRecord {
        var record = TestPurchases.record(purchased: Date(timeIntervalSince1970: 1_700_000_000))
        record.signedTransaction = jws
        return record
    }

    @Test func aRememberedTextIsFoundByItsExactText() {
        let memo = VerifiedJWSMemo()
        let jws = "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2lnbmF0dXJlLWJ5dGVzLTEyMzQ1Njc4"
        memo.remember(record(jws))
        #expect(memo.record(for: jws)?.signedTransaction == jws)
        // A copy made another way is the same text.
        #expect(memo.record(for: String(decoding: Array(jws.utf8), as: UTF8.self)) != nil)
    }

    @Test func aTextFiledUnderTheSameKeyButDifferentElsewhereIsNotAnswered() {
        let memo = VerifiedJWSMemo()
        let signature = "c2lnbmF0dXJlLWJ5dGVzLTEyMzQ1Njc4"
        let genuine = "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9." + signature
        let forged = "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMiJ9." + signature
        #expect(genuine.utf8.count == forged.utf8.count)
        memo.remember(record(genuine))
        #expect(memo.record(for: forged) == nil)
        #expect(memo.record(for: genuine) != nil)
    }

    @Test func shortTextsAndRecordsWithoutAJWSAreNeverRemembered() {
        let memo = VerifiedJWSMemo()
        memo.remember(record("a.b.c"))
        #expect(memo.record(for: "a.b.c") == nil)
        var unsigned = record("")
        unsigned.signedTransaction = nil
        memo.remember(unsigned)
        #expect(memo.record(for: "") == nil)
    }

    @Test func aFullMemoStartsOver() {
        let memo = VerifiedJWSMemo(capacity: 3)
        let texts = (0..<4).map { "header.payload.signature-of-transaction-\($0)" }
        for text in texts { memo.remember(record(text)) }
        #expect(texts.map { memo.record(for: $0) != nil } == [false, false, false, true])
    }
}
