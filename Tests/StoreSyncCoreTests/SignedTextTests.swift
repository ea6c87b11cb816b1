import Foundation
import PropertyBased
import StoreSyncCore
import Testing

/// A signed text split after its header is the same text as held whole: the same string back,
/// equal, hashed alike, and a record carrying it is the same record.
@Suite struct SignedTextTests {
    /// Texts of dots and a few letters (the places a split can fall), some with a multi-byte
    /// character on either side of the first dot.
    private static let texts = Gen.int(in: 0...4).map { ["a", "b", ".", "é", "Z"][$0] }.array(of: 0...40).map { $0.joined() }

    @Test func aSplitTextIsTheSameTextAsTheWholeOne() async {
        await propertyCheck(count: 300, input: Self.texts) { text in
            let whole = SignedText(whole: text)
            let split = SignedText.splitting(text)
            #expect(split.string == text)
            #expect(Array(split.string.utf8) == Array(text.utf8))
            #expect(split.utf8Count == text.utf8.count)
            #expect(split == whole)
            #expect(split.hashValue == whole.hashValue)
            #expect(split.lastSixteenBytes == whole.lastSixteenBytes)
            if text.contains(".") {
                guard case .split(let header, let rest) = split.layout else {
                    Issue.record("a text with a dot is held split")
                    return
                }
                #expect(header.bytes.last == UInt8(ascii: "."))
                #expect(header.bytes.dropLast().contains(UInt8(ascii: ".")) == false)
                #expect(header.bytes + rest == Array(text.utf8))
            } else {
                guard case .whole = split.layout else {
                    Issue.record("a text without a dot is held whole")
                    return
                }
            }
        }
    }

    @Test func textsOneByteApartAreNotEqualHoweverTheyAreHeld() async {
        await propertyCheck(count: 300, input: Self.texts.filter { !$0.isEmpty }, Gen.int(in: 0...1_000)) { text, seed in
            var bytes = Array(text.utf8)
            let position = seed % bytes.count
            bytes[position] = bytes[position] == UInt8(ascii: "x") ? UInt8(ascii: "y") : UInt8(ascii: "x")
            let other = String(decoding: bytes, as: UTF8.self)
            guard Array(other.utf8) != Array(text.utf8) else { return }
            #expect(SignedText.splitting(text) != SignedText.splitting(other))
            #expect(SignedText.splitting(text) != SignedText(whole: other))
            #expect(SignedText(whole: text) != SignedText.splitting(other))
        }
    }

    @Test func aHeaderIsSharedOnlyWithTheSameBytes() {
        var headers = SharedHeaders(limit: 8)
        let texts = ["header-one.payload.signature-1", "header-one.payload.signature-2", "header-two.payload.signature-3"]
        let split = texts.map { headers.split($0) }
        let held = split.compactMap { text -> SignedText.Header? in
            guard case .split(let header, _) = text.layout else { return nil }
            return header
        }
        #expect(held.count == 3)
        #expect(held[0] === held[1])
        #expect(held[0] !== held[2])
        #expect(split.map(\.string) == texts)
        #expect(headers.headers.count == 2)
    }

    /// A text split elsewhere takes the shared header with the same bytes; one with a new
    /// header brings its own object in, while there is room, and beyond the limit keeps it.
    @Test func sharingATextSplitElsewhereKeepsItsBytes() {
        var headers = SharedHeaders(limit: 1)
        let first = headers.split("header-one.payload.signature-1")
        let elsewhere = SignedText.splitting("header-one.payload.signature-2")
        let shared = headers.sharing(elsewhere)
        guard case .split(let firstHeader, _) = first.layout, case .split(let sharedHeader, _) = shared.layout else {
            Issue.record("split")
            return
        }
        #expect(sharedHeader === firstHeader)
        #expect(shared == elsewhere)
        #expect(headers.sharing(first) === first, "a text holding a shared header already is returned as it is")

        let beyond = SignedText.splitting("header-two.payload.signature-3")
        #expect(headers.sharing(beyond) === beyond, "beyond the limit a text keeps its own header")
        #expect(headers.headers.count == 1)
        #expect(headers.sharing(SignedText(whole: "header-one.x.y")).string == "header-one.x.y")
        #expect(headers.split("no-dot") == SignedText(whole: "no-dot"))
    }

    @Test func aRecordIsTheSameWhetherItsTextIsSplitOrWhole() throws {
        let jws = "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2lnbmF0dXJlLWJ5dGVzLTEyMzQ1Njc4"
        var whole = TransactionRecord(
            transactionId: "1", originalTransactionId: "1", productId: "pro", productType: .nonConsumable,
            purchaseDate: Date(timeIntervalSince1970: 1_700_000_000), originalPurchaseDate: Date(timeIntervalSince1970: 1_700_000_000),
            signedDate: Date(timeIntervalSince1970: 1_700_000_000), evidence: .jws, signedTransaction: jws)
        var split = whole
        split.signedText = SignedText.splitting(jws)
        #expect(split.signedTransaction == jws)
        #expect(split == whole)
        #expect(split.hashValue == whole.hashValue)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(split) == encoder.encode(whole))
        whole.signedTransaction = nil
        #expect(whole.signedText == nil)
        #expect(split != whole)
    }
}
