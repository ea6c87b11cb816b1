import Foundation
import StoreSyncCore
import Testing

@testable import StoreSyncServer

/// The memo answers only for a text byte for byte equal to one it remembered, whatever its
/// filing key (the length and last 16 bytes) says, and whatever header it has however many
/// headers there are (it keeps a compact copy of each text, its header shared).
@Suite struct VerifiedJWSMemoTests {
    private func record(_ jws: String) -> TransactionRecord {
        var record = TestPurchases.record(purchased: Date(timeIntervalSince1970: 1_700_000_000))
        record.signedTransaction = jws
        return record
    }

    @Test func aRememberedTextIsFoundByItsExactText() {
        let memo = VerifiedJWSMemo()
        let jws = "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2lnbmF0dXJlLWJ5dGVzLTEyMzQ1Njc4"
        memo.remember([record(jws)])
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
        memo.remember([record(genuine)])
        #expect(memo.record(for: forged) == nil)
        #expect(memo.record(for: genuine) != nil)
    }

    @Test func shortTextsAndRecordsWithoutAJWSAreNeverRemembered() {
        let memo = VerifiedJWSMemo()
        memo.remember([record("a.b.c")])
        #expect(memo.record(for: "a.b.c") == nil)
        var unsigned = record("")
        unsigned.signedTransaction = nil
        memo.remember([unsigned])
        #expect(memo.record(for: "") == nil)
    }

    @Test func aFullMemoStartsOver() {
        let memo = VerifiedJWSMemo(capacity: 3)
        let texts = (0..<4).map { "header.payload.signature-of-transaction-\($0)" }
        for text in texts { memo.remember([record(text)]) }
        #expect(texts.map { memo.record(for: $0) != nil } == [false, false, false, true])
    }

    @Test func textsOfManyHeadersAreEachFoundByTheirExactTextOnly() {
        let memo = VerifiedJWSMemo()
        let texts = (0..<40).map { index in
            "header-\(index % 20).payload-of-transaction-\(index).signature-bytes-\(index)-0123456789"
        }
        for text in texts { memo.remember([record(text)]) }
        for text in texts {
            #expect(memo.record(for: text)?.signedTransaction == text)
        }
        let otherHeader = texts[3].replacingOccurrences(of: "header-3.", with: "header-4.")
        #expect(otherHeader.utf8.count == texts[3].utf8.count)
        #expect(memo.record(for: otherHeader) == nil)
    }

    @Test func aTextWithoutADotIsFoundByItsExactText() {
        let memo = VerifiedJWSMemo()
        let text = "no-dots-at-all-but-long-enough-0123456789"
        memo.remember([record(text)])
        #expect(memo.record(for: text)?.signedTransaction == text)
        #expect(memo.record(for: "no-dots-at-all-but-long-enough-0123456780") == nil)
    }

    @Test func theRecordFoundIsTheRememberedOneWithTheTextAskedFor() {
        let memo = VerifiedJWSMemo()
        let remembered = record("eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2lnbmF0dXJlLWJ5dGVzLTEyMzQ1Njc4")
        memo.remember([remembered])
        let found = memo.record(for: String(decoding: Array(remembered.signedTransaction!.utf8), as: UTF8.self))
        #expect(found == remembered)
    }

    /// A text is found however it is held, remembered from one form and asked for in the
    /// other; the record found carries the memo's copy, never the asker's.
    @Test func aTextIsFoundWhetherHeldSplitOrWhole() {
        let memo = VerifiedJWSMemo()
        let jws = "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2lnbmF0dXJlLWJ5dGVzLTEyMzQ1Njc4"
        var splitRecord = record(jws)
        splitRecord.signedText = SignedText.splitting(jws)
        memo.remember([splitRecord])
        let asked = SignedText(whole: String(decoding: Array(jws.utf8), as: UTF8.self))
        let found = memo.record(for: asked)
        #expect(found?.signedTransaction == jws)
        #expect(found?.signedText !== asked)
        #expect(memo.record(for: SignedText.splitting(jws))?.signedTransaction == jws)
        #expect(memo.record(for: jws)?.signedTransaction == jws)

        let other = "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMiJ9.c2lnbmF0dXJlLWJ5dGVzLTEyMzQ1Njc4"
        memo.remember([record(other)])
        #expect(memo.record(for: SignedText.splitting(other))?.signedTransaction == other)
        let forged = "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMyJ9.c2lnbmF0dXJlLWJ5dGVzLTEyMzQ1Njc4"
        #expect(memo.record(for: SignedText.splitting(forged)) == nil)
        #expect(memo.record(for: SignedText(whole: forged)) == nil)
    }

    /// Texts that share a header are remembered with the memo's own header object, not the
    /// request's, which a remembered text would otherwise keep alive.
    @Test func rememberedTextsShareTheMemosHeader() {
        let memo = VerifiedJWSMemo()
        let texts = (0..<3).map { "eyJhbGciOiJFUzI1NiJ9.payload-\($0).signature-bytes-\($0)-0123456789" }
        for text in texts {
            var record = record(text)
            record.signedText = SignedText.splitting(text)  // a header object of its own each
            memo.remember([record])
        }
        let headers = texts.compactMap { text -> SignedText.Header? in
            guard case .split(let header, _) = memo.record(for: text)?.signedText?.layout else { return nil }
            return header
        }
        #expect(headers.count == 3)
        #expect(headers.allSatisfy { $0 === headers[0] })
    }
}
