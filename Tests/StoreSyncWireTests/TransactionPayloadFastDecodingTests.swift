import AppStorePayloads
import Foundation
import PropertyBased
import StoreSyncCore
import StoreSyncTesting
import StoreSyncWire
import Testing

/// `TransactionPayload.fastDecoded(from:)` may decline any payload, but whatever it reads
/// must be exactly what ``PayloadDecoder`` (`JSONDecoder`) reads: it never accepts a payload
/// the decoder refuses, and never reads one differently.
@Suite struct TransactionPayloadFastDecodingTests {
    static let text = WireGenerators.mostlyPlainText
    /// Whole milliseconds as Apple writes them, and now and then a fraction (which the fast
    /// path leaves alone) or an instant no `Double` of milliseconds holds exactly.
    static let date = zip(Gen.int(in: -2_000_000_000_000...4_000_000_000_000), Gen.int(in: 0...19)).map { milliseconds, roll in
        switch roll {
        case 0: Date(timeIntervalSince1970: Double(milliseconds) / 1000 + 0.0004)
        case 1: Date(timeIntervalSince1970: 9.1e15)
        default: Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        }
    }
    static let number = Gen.int(in: -5...100_000)
    static let token = WireGenerators.one(of: [
        UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!, UUID(uuidString: "00000000-0000-0000-0000-000000000000")!,
    ])

    static let identity = zip(
        text.optional(), text.optional(), text.optional(), text.optional(), text.optional(), text.optional())
    static let dates = zip(date.optional(), date.optional(), date.optional(), date.optional(), date.optional())
    static let numbers = zip(number.optional(), number.optional(), number.optional(), number.optional(), Gen.bool.optional())
    static let storefront = zip(
        text.optional(), text.optional(), text.optional(), text.optional(), text.optional(), text.optional(),
        text.optional())
    static let kinds = zip(
        WireGenerators.one(of: ["Auto-Renewable Subscription", "Non-Consumable", "Consumable", "A Kind Apple Adds Later"]).optional(),
        WireGenerators.one(of: ["PURCHASED", "FAMILY_SHARED"]).optional(), WireGenerators.one(of: ["PURCHASE", "RENEWAL"]).optional(),
        WireGenerators.one(of: ["REFUND_FULL", "REFUND_PRORATED"]).optional(), token.optional(), number.optional())

    static let payload = zip(identity, dates, numbers, storefront, kinds).map { identity, dates, numbers, storefront, kinds in
        var payload = TransactionPayload()
        (payload.originalTransactionId, payload.transactionId, payload.webOrderLineItemId, payload.bundleId,
         payload.productId, payload.subscriptionGroupIdentifier) = identity
        (payload.purchaseDate, payload.originalPurchaseDate, payload.expiresDate, payload.signedDate,
         payload.revocationDate) = dates
        payload.quantity = numbers.0
        payload.offerType = numbers.1
        payload.price = numbers.2.map(Int64.init)
        payload.revocationPercentage = numbers.3
        payload.isUpgraded = numbers.4
        (payload.offerIdentifier, payload.environment, payload.storefront, payload.storefrontId, payload.currency,
         payload.offerDiscountType, payload.offerPeriod) = storefront
        payload.type = kinds.0.map(AppStoreProductType.init(rawValue:))
        payload.inAppOwnershipType = kinds.1.map(InAppOwnershipType.init(rawValue:))
        payload.transactionReason = kinds.2.map(TransactionReason.init(rawValue:))
        payload.revocationType = kinds.3.map(RevocationType.init(rawValue:))
        payload.appAccountToken = kinds.4
        payload.revocationReason = kinds.5.map(RevocationReason.init(rawValue:))
        payload.appTransactionId = identity.0.map { $0 + "-app" }
        return payload
    }

    static func encoded(_ payload: TransactionPayload) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return Array(try encoder.encode(payload))
    }

    static func foundation(_ bytes: [UInt8]) -> TransactionPayload? {
        try? PayloadDecoder.decode(TransactionPayload.self, from: bytes, part: "payload")
    }

    @Test func whatTheEncoderWritesReadsAsJSONDecoderReadsIt() async {
        await propertyCheck(count: 500, input: Self.payload) { payload in
            let bytes = try Self.encoded(payload)
            let fast = TransactionPayload.fastDecoded(from: bytes)
            #expect(fast == nil || fast == Self.foundation(bytes), "\(String(decoding: bytes, as: UTF8.self))")
            // Plain ASCII without escapes, with whole numbers only, is what the fast path is
            // for: it must read it.
            let plain = !bytes.contains(UInt8(ascii: "\\")) && bytes.allSatisfy { $0 < 0x80 }
                && !Self.hasFractionOrExponent(bytes)
            #expect(!plain || fast == payload)
        }
    }

    /// Whether a number in the JSON has a fraction or an exponent (a digit then `.`, `e` or `E`).
    static func hasFractionOrExponent(_ bytes: [UInt8]) -> Bool {
        zip(bytes, bytes.dropFirst()).contains { digit, next in
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) && [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(next)
        }
    }

    /// Bytes deleted, inserted or replaced anywhere: what the fast path still reads, the
    /// decoder reads the same.
    @Test func aMangledPayloadIsNeverReadDifferentlyFromJSONDecoder() async {
        await propertyCheck(count: 1_000, input: zip(Self.payload, WireGenerators.edits)) { payload, edits in
            let bytes = WireGenerators.applying(edits, to: try Self.encoded(payload))
            if let fast = TransactionPayload.fastDecoded(from: bytes) {
                #expect(fast == Self.foundation(bytes), "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
    }

    /// The test App Store signs as Apple does: its payloads must take the fast path, or the
    /// fast path would quietly never run.
    @Test(arguments: ProductType.allCases)
    func aPayloadAsAppleSignsItIsReadByTheFastPath(type: ProductType) throws {
        let pki = try TestPKI.make()
        let signer = AppStoreTestSigner(pki: pki, bundleId: "com.example.app", appAppleId: 1234)
        let now = Date(timeIntervalSince1970: 1_795_000_000.123)
        let record = TransactionRecord(
            transactionId: "2000000000001", originalTransactionId: "2000000000000", productId: "com.example.product",
            productType: type, purchaseDate: now, originalPurchaseDate: now,
            expiresDate: type == .autoRenewable ? now.addingTimeInterval(86_400) : nil, environment: .sandbox,
            appAccountToken: UUID(), signedDate: now, evidence: .jws)
        let jws = signer.signTransaction(record)
        let payloadPart = try #require(jws.split(separator: ".").dropFirst().first)
        let bytes = try #require(Base64URL.decode(Array(payloadPart.utf8)))
        let fast = try #require(TransactionPayload.fastDecoded(from: bytes))
        #expect(fast == Self.foundation(bytes))
        #expect(fast.signedDate == Date(timeIntervalSince1970: 1_795_000_000.123))
    }

    @Test func unknownKeysWithPlainValuesAreSkippedAsJSONDecoderSkipsThem() throws {
        let bytes = Array("""
            { "transactionId" : "1001", "someFieldAppAddsLater": "x", "aCount": 3, "aFlag": false, "nothing": null,
              "purchaseDate": 1700000000123, "expiresDate": null }
            """.utf8)
        let fast = try #require(TransactionPayload.fastDecoded(from: bytes))
        #expect(fast == Self.foundation(bytes))
        #expect(fast.purchaseDate == Date(timeIntervalSince1970: 1_700_000_000.123))
    }

    @Test(arguments: [
        #"{"transactionId":"1","transactionId":"2"}"#,  // a repeated key
        #"{"later":{"nested":1}}"#,  // an unknown key with a value that is not a plain scalar
        #"{"later":[1]}"#,
        #"{"later":1.5}"#,
        #"{"transactionId":"caf\u00e9"}"#,  // an escape
        #"{"transactionId":"café"}"#,  // non-ASCII
        #"{"purchaseDate":1700000000123.5}"#,  // a fraction of a millisecond
        #"{"purchaseDate":1e12}"#,
        #"{"purchaseDate":9007199254740993}"#,  // beyond what a Double holds exactly
        #"{"signedDate":-9223372036854775808}"#,  // Int.min, whose abs traps
        #"{"purchaseDate":-9007199254740993}"#,
        #"{"quantity":"1"}"#,
        #"{"appAccountToken":"not-a-uuid"}"#,
        #"{"isUpgraded":1}"#,
        #"{} x"#,  // trailing text
        #"[]"#,
        "",
    ])
    func payloadsOutsideThePlainFormAreLeftToJSONDecoder(json: String) {
        #expect(TransactionPayload.fastDecoded(from: Array(json.utf8)) == nil)
    }
}
