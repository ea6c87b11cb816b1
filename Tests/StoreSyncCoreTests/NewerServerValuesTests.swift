import Foundation
import StoreSyncCore
import Testing

/// Values a newer server may write that this version does not know: read as documented by a
/// device's decoder, refused by any other (a server reading a device's input).
@Suite struct NewerServerValuesTests {
    static let record = """
        {"transactionId":"2","originalTransactionId":"1","productId":"lifetime","productType":"nonConsumable",
        "purchaseDate":1800000000,"originalPurchaseDate":1800000000,"signedDate":1800000000,
        "ownershipType":"giftedByFamily","environment":"visionSandbox","evidence":"appTransaction","addedMember":[1]}
        """
    static let entitlement = """
        {"entitlementId":"premium","productId":"lifetime","originalTransactionId":"1","source":"nonConsumable",
        "ownershipType":"giftedByFamily","environment":"visionSandbox","addedMember":{"a":1}}
        """

    func decoder(readingNewerValues: Bool) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        if readingNewerValues { decoder.userInfo[.readsNewerServerValues] = true }
        return decoder
    }

    @Test func aDeviceReadsUnknownValuesAsDocumented() throws {
        let record = try decoder(readingNewerValues: true).decode(TransactionRecord.self, from: Data(Self.record.utf8))
        #expect(record.evidence == .unrecognized(kind: "appTransaction"))
        #expect(record.ownershipType == .purchased)
        #expect(record.environment == .production)
        #expect(!record.evidence.grants)

        let entitlement = try decoder(readingNewerValues: true).decode(Entitlement.self, from: Data(Self.entitlement.utf8))
        #expect(entitlement.ownershipType == .purchased)
        #expect(entitlement.environment == .production)
    }

    @Test func anyOtherDecoderRefusesThem() {
        #expect(throws: DecodingError.self) {
            try decoder(readingNewerValues: false).decode(TransactionRecord.self, from: Data(Self.record.utf8))
        }
        #expect(throws: DecodingError.self) {
            try decoder(readingNewerValues: false).decode(Entitlement.self, from: Data(Self.entitlement.utf8))
        }
    }

    @Test func anUnrecognizedKindIsWrittenAsItWasSpelledAndRanksBelowEveryKnownOne() throws {
        let unknown = Evidence.unrecognized(kind: "appTransaction")
        #expect(unknown.kind == "appTransaction")
        #expect(Evidence(kind: "appTransaction", verifiedAt: nil) == nil, "only a device's decoder makes one")
        for known in [Evidence.jws, .receipt(verifiedAt: Date(timeIntervalSince1970: 0)), .unverifiedJWS, .claim] {
            #expect(unknown.strength < known.strength)
        }
        let record = try decoder(readingNewerValues: true).decode(TransactionRecord.self, from: Data(Self.record.utf8))
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        let again = try decoder(readingNewerValues: true).decode(TransactionRecord.self, from: encoder.encode(record))
        #expect(again == record)
    }
}
