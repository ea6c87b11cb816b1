import Foundation
import PropertyBased
import StoreSyncAPI
import StoreSyncCore
import StoreSyncWire
import Testing

/// `RestoreRequest.fastDecoded(from:)` may decline any body, but whatever it reads must be
/// exactly what `JSONDecoder` reads: it never accepts a body the decoder refuses, and never
/// reads one differently.
@Suite struct RestoreRequestFastDecodingTests {
    static let text = WireGenerators.mostlyPlainText
    /// The canonical-writer tests' random records (escape-heavy text), most of them with
    /// plain identifiers and all with a JWS or none.
    static let record = zip(SnapshotGenerators.record, zip(text, text, text), text.optional(), text.optional(), Gen.int(in: 0...9))
        .map { base, identifiers, group, jws, roll in
            var record = base
            if roll > 0 {
                (record.transactionId, record.originalTransactionId, record.productId) = identifiers
                record.subscriptionGroupId = group
            }
            record.signedTransaction = jws
            return record
        }

    /// A record, or one in four times only its signed transaction (an app without the cache).
    static let entry = zip(record, Gen.int(in: 0...3)).map { record, roll in
        roll == 0 ? RestoreEntry.signedTransaction(record.signedTransaction ?? record.transactionId) : .record(record)
    }

    static let request = zip(
        entry.array(of: 0...4), zip(text, Gen.bool).array(of: 0...2).optional(), text.optional(), Gen.bool.optional(),
        Gen.bool.optional()
    ).map { entries, flags, receipt, userInitiated, dryRun in
        RestoreRequest(
            entries: entries, legacyFlags: flags.map { Dictionary($0, uniquingKeysWith: { first, _ in first }) },
            receipt: receipt, userInitiated: userInitiated, dryRun: dryRun)
    }

    static func fast(_ body: Data) -> RestoreRequest? {
        body.withUnsafeBytes { RestoreRequest.fastDecoded(from: $0) }
    }

    static func foundation(_ body: Data) -> RestoreRequest? {
        try? StoreSyncJSON.makeDecoder().decode(RestoreRequest.self, from: body)
    }

    @Test func whatTheEncoderWritesReadsAsJSONDecoderReadsIt() async {
        await propertyCheck(count: 500, input: Self.request) { request in
            let body = try StoreSyncJSON.makeEncoder().encode(request)
            let fast = Self.fast(body)
            #expect(fast == nil || fast == Self.foundation(body))
            // Plain ASCII without escapes is what the fast path is for: it must read it.
            let plain = !body.contains(UInt8(ascii: "\\")) && body.allSatisfy { $0 < 0x80 }
            #expect(!plain || fast == request)
        }
    }

    /// Bytes deleted, inserted or replaced anywhere: what the fast path still reads, the
    /// decoder reads the same.
    @Test func aMangledBodyIsNeverReadDifferentlyFromJSONDecoder() async {
        await propertyCheck(count: 1_000, input: zip(Self.request, WireGenerators.edits)) { request, edits in
            let body = WireGenerators.applying(edits, to: try StoreSyncJSON.makeEncoder().encode(request))
            if let fast = Self.fast(body) {
                #expect(fast == Self.foundation(body), "\(String(decoding: body, as: UTF8.self))")
            }
        }
    }

    @Test func whitespaceNullsAndAnyKeyOrderReadAsJSONDecoderReadsThem() throws {
        let body = Data("""
             { "userInitiated" : true , "entries" : [ { "signedDate":"2026-11-22T10:15:30Z", "evidence":"receipt",
              "verifiedAt":"2026-11-22T10:15:30.5+02:00", "productType":"autoRenewable", "productId":"com.example.monthly",
              "originalTransactionId":"1000", "transactionId":"1001", "purchaseDate":"2026-11-22T10:15:30.123Z",
              "originalPurchaseDate":"2026-10-22T10:15:30.123Z", "expiresDate":null, "revocationReason":-0,
              "isUpgraded":null, "quantity":0, "appAccountToken":"e621e1f8-c36c-495a-93fc-0c247a3e6e5f" } ],
              "legacyFlags" : { "com.example.pro": false }, "dryRun": null }\r\n
            """.utf8)
        let fast = try #require(Self.fast(body))
        #expect(fast == Self.foundation(body))
        #expect(fast.entries.first?.record?.evidence == .receipt(verifiedAt: try #require(RFC3339Timestamp.date(from: "2026-11-22T08:15:30.5Z"))))
    }

    @Test func anEntryOfOnlyASignedTransactionReadsAsThatTextAlone() throws {
        let body = Data(#"{"entries":[{"signedTransaction":"a.b.c"},{"transactionId":"1","originalTransactionId":"1","productId":"p","productType":"consumable","purchaseDate":"2026-11-22T10:15:30Z","originalPurchaseDate":"2026-11-22T10:15:30Z","signedDate":"2026-11-22T10:15:30Z","evidence":"jws","signedTransaction":"d.e.f"}]}"#.utf8)
        let fast = try #require(Self.fast(body))
        #expect(fast == Self.foundation(body))
        #expect(fast.entries.first == .signedTransaction("a.b.c"))
        #expect(fast.entries.last?.record?.signedTransaction == "d.e.f")
    }

    @Test(arguments: [
        #"{"entries":[{}]}"#,  // neither form: the decoder names the missing field
        #"{"entries":[{"signedTransaction":null}]}"#,
        #"{"entries":[{"signedTransaction":"a.b.c","signedTransaction":"d.e.f"}]}"#,
        #"{"entries":[],"entries":[]}"#,  // a repeated key
        #"{"entries":[],"extra":1}"#,  // a key the decoder would ignore
        #"{"entries":[{"transactionId":"1","transactionId":"2"}]}"#,
        #"{"entries":[]} x"#,  // trailing text
        #"{"legacyFlags":{}}"#,  // no entries
        #"{"entries":null}"#,
        #"{"entries":[],"dryRun":1}"#,
        #"{"entries":[],"legacyFlags":{"a":true,"a":false}}"#,
        #"{"entries":[],"legacyFlags":{"caf\u00e9":true}}"#,  // an escape
        #"{"entries":[],"legacyFlags":{"café":true}}"#,  // non-ASCII
        #"[]"#,
        "",
    ])
    func bodiesOutsideThePlainFormAreLeftToJSONDecoder(body: String) {
        #expect(Self.fast(Data(body.utf8)) == nil)
    }

    @Test(arguments: ["1.0", "1e2", "01", "-", "99999999999999999999", "\"1\"", "true"])
    func onlyPlainIntegersAreReadAsNumbers(quantity: String) {
        let body = """
            {"entries":[{"transactionId":"1","originalTransactionId":"1","productId":"p","productType":"consumable",
            "purchaseDate":"2026-11-22T10:15:30Z","originalPurchaseDate":"2026-11-22T10:15:30Z",
            "signedDate":"2026-11-22T10:15:30Z","evidence":"jws","quantity":\(quantity)}]}
            """
        #expect(Self.fast(Data(body.utf8)) == nil)
    }
}
