import Foundation
import PropertyBased
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting
import Testing

/// The reference encoder itself: the definition the hand-written writers are held to must be
/// right on its own.
@Suite struct CanonicalJSONTests {
    private func text(_ value: some Encodable) throws -> String {
        String(decoding: try CanonicalJSON.encode(value), as: UTF8.self)
    }

    @Test func sortsKeysByUTF8BytesWithoutWhitespace() throws {
        let value = ["b": 1, "a": 2, "B": 3, "é": 4, "aa": 5, "_": 6, "Z": 7]
        #expect(try text(value) == #"{"B":3,"Z":7,"_":6,"a":2,"aa":5,"b":1,"é":4}"#)
    }

    @Test func equalDictionariesBuiltInDifferentOrdersGiveIdenticalBytes() throws {
        var forward: [String: Bool] = [:]
        var backward: [String: Bool] = [:]
        let keys = (0..<50).map { "product.\($0)" }
        for key in keys { forward[key] = true }
        for key in keys.reversed() { backward[key] = true }
        #expect(try CanonicalJSON.encode(forward) == CanonicalJSON.encode(backward))
    }

    @Test(arguments: [
        ("plain", #""plain""#),
        ("quote\"back\\slash", #""quote\"back\\slash""#),
        ("\u{08}\u{09}\u{0A}\u{0C}\u{0D}", #""\b\t\n\f\r""#),
        ("\u{00}\u{01}\u{1F}", #""\u0000\u0001\u001f""#),
        ("\u{7F}/é€😀\u{2028}", "\"\u{7F}/é€😀\u{2028}\""),
    ])
    func escapesStringsMinimally(value: String, expected: String) throws {
        #expect(try text(value) == expected)
    }

    @Test func writesIntegersBooleansAndNulls() throws {
        struct Mixed: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.unkeyedContainer()
                try container.encode(Int64.min)
                try container.encode(UInt64.max)
                try container.encode(0 as Int8)
                try container.encode(true)
                try container.encodeNil()
            }
        }
        #expect(try text(Mixed()) == "[-9223372036854775808,18446744073709551615,0,true,null]")
    }

    @Test func writesDatesAndDataCanonically() throws {
        struct Sample: Encodable {
            var at = Date(millisecondsSince1970: 1_795_342_530_123)
            var bytes = Data([0, 1, 2, 250])
            var link = URL(string: "https://storesync.dev/errors/internal")!
        }
        #expect(try text(Sample())
            == #"{"at":"2026-11-22T10:15:30.123Z","bytes":"AAEC+g==","link":"https://storesync.dev/errors/internal"}"#)
    }

    @Test func omitsNilOptionals() throws {
        #expect(try text(UploadTransactionRequest(signedTransaction: "a.b.c")) == #"{"signedTransaction":"a.b.c"}"#)
    }

    @Test(arguments: [1.5, 0.0, Double.nan])
    func rejectsFloatingPointNumbers(value: Double) {
        #expect(throws: EncodingError.self) { try CanonicalJSON.encode(["price": value]) }
        #expect(throws: EncodingError.self) { try CanonicalJSON.encode([value]) }
        #expect(throws: EncodingError.self) { try CanonicalJSON.encode(value) }
    }

    @Test func rejectsDatesOutsideTheWritableYears() {
        #expect(throws: EncodingError.self) { try CanonicalJSON.encode([Date.distantPast]) }
    }

    @Test func supportsNestedContainersAndSuperEncoders() throws {
        struct Nested: Encodable {
            enum Keys: String, CodingKey { case outer, list, parent }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                var outer = container.nestedContainer(keyedBy: Keys.self, forKey: .outer)
                try outer.encode("x", forKey: .list)
                var list = container.nestedUnkeyedContainer(forKey: .list)
                try list.encode(2)
                var inner = list.nestedContainer(keyedBy: Keys.self)
                try inner.encode(false, forKey: .outer)
                var deeper = list.nestedUnkeyedContainer()
                try deeper.encode("y")
                try list.encode(3)
                try "parent".encode(to: container.superEncoder(forKey: .parent))
                try 9.encode(to: container.superEncoder())
            }
        }
        #expect(try text(Nested())
            == #"{"list":[2,{"outer":false},["y"],3],"outer":{"list":"x"},"parent":"parent","super":9}"#)
    }

    @Test func valueThatEncodesNothingIsAnEmptyObject() throws {
        struct Silent: Encodable { func encode(to encoder: any Encoder) throws {} }
        #expect(try text(Silent()) == "{}")
    }

    @Test func outputIsValidJSONThatDecodesToTheSameRecord() async {
        await propertyCheck(count: 200, input: Gen.int64(in: 0...4_102_444_800_000), Gen.letterOrNumber.string(of: 1...20)) {
            milliseconds, id in
            let record = TransactionRecord(
                transactionId: id + "\"\n\\", originalTransactionId: id, productId: "p/é",
                productType: .autoRenewable, purchaseDate: Date(millisecondsSince1970: milliseconds),
                originalPurchaseDate: Date(millisecondsSince1970: milliseconds / 2),
                expiresDate: Date(millisecondsSince1970: milliseconds + 1), signedDate: Date(millisecondsSince1970: milliseconds),
                evidence: .receipt(verifiedAt: Date(millisecondsSince1970: milliseconds)))
            let canonical = try CanonicalJSON.encode(record)
            #expect(try StoreSyncJSON.makeDecoder().decode(TransactionRecord.self, from: canonical) == record)
            #expect(try CanonicalJSON.encode(record) == canonical)
        }
    }

    @Test func whatASignatureCoversDecodesBackAndIsStable() throws {
        try expectCanonicalRoundTrip(WireFixture.snapshot)
        for record in [WireFixture.subscription, WireFixture.refunded, WireFixture.claim] {
            try expectCanonicalRoundTrip(record)
        }
        for entitlement in [WireFixture.lifetime, WireFixture.expiring] {
            try expectCanonicalRoundTrip(entitlement)
        }
    }

    private func expectCanonicalRoundTrip<Value: Codable & Equatable>(_ value: Value) throws {
        let canonical = try CanonicalJSON.encode(value)
        #expect(try StoreSyncJSON.makeDecoder().decode(Value.self, from: canonical) == value)
        let decoded = try StoreSyncJSON.makeDecoder().decode(Value.self, from: canonical)
        #expect(try CanonicalJSON.encode(decoded) == canonical, "equal \(Value.self) values give identical bytes")
    }
}
