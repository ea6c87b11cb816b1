import AppStorePayloads
import Foundation
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct UnverifiedJWSTests {
    @Test func aSignedTransactionReadsBackIntoTheRecordItWasMadeFrom() throws {
        let signer = AppStoreTestSigner(pki: try TestPKI.make())
        let now = Date().roundedToMilliseconds
        let record = TransactionRecord(
            transactionId: "1000000001", originalTransactionId: "1000000000", productId: "com.example.monthly",
            productType: .autoRenewable, purchaseDate: now, originalPurchaseDate: now.addingTimeInterval(-86_400),
            expiresDate: now.addingTimeInterval(30 * 86_400), ownershipType: .familyShared, environment: .sandbox,
            appAccountToken: UUID(), signedDate: now, subscriptionGroupId: "group", evidence: .jws)
        let jws = signer.signTransaction(record)

        var read = try UnverifiedJWS.transaction(jws)
        #expect(read.signedTransaction == jws)
        read.signedTransaction = nil
        #expect(read == record)
    }

    @Test(arguments: ["", "a.b", "a.b.c", "not base64!.eyJ9.c", "x.eyJ0cmFuc2FjdGlvbklkIjogMX0.y"])
    func textThatIsNotASignedTransactionIsATypedError(_ text: String) {
        #expect(throws: PayloadError.self) { try UnverifiedJWS.transaction(text) }
    }

    @Test func aProductTypeAppleAddsLaterIsKeptAsSpelled() throws {
        let signer = AppStoreTestSigner(pki: try TestPKI.make())
        let payload = Data(#"{"transactionId":"1","originalTransactionId":"1","productId":"p","type":"Gadget","purchaseDate":1,"signedDate":1,"bundleId":"b","gadgetInfo":{"size":[1,2]}}"#.utf8)
        let jws = signer.sign(payload: payload)
        let record = try UnverifiedJWS.transaction(jws)
        #expect(record.productType == ProductType(rawValue: "Gadget"))
        #expect(!record.productType.isKnown)
    }

    @Test func aPayloadWithoutAProductTypeIsMalformed() throws {
        let signer = AppStoreTestSigner(pki: try TestPKI.make())
        let payload = Data(#"{"transactionId":"1","originalTransactionId":"1","productId":"p","type":"","purchaseDate":1,"signedDate":1,"bundleId":"b"}"#.utf8)
        #expect(throws: PayloadError.malformed("type is missing")) { try UnverifiedJWS.transaction(signer.sign(payload: payload)) }
    }

    @Test func theEnvironmentATransactionNamesIsReadAsNamedAndNeverGuessed() throws {
        let signer = AppStoreTestSigner(pki: try TestPKI.make())
        func named(_ environment: String?) -> String {
            let field = environment.map { #","environment":"\#($0)""# } ?? ""
            return signer.sign(payload: Data(
                #"{"transactionId":"1","originalTransactionId":"1","productId":"p","type":"Non-Consumable","purchaseDate":1,"signedDate":1,"bundleId":"b"\#(field)}"#.utf8))
        }
        #expect(UnverifiedJWS.environment(ofTransaction: named("Xcode")) == .xcode)
        #expect(UnverifiedJWS.environment(ofTransaction: named("LocalTesting")) == .localTesting)
        #expect(UnverifiedJWS.environment(ofTransaction: named("Sandbox")) == .sandbox)
        #expect(UnverifiedJWS.environment(ofTransaction: named(nil)) == nil, "the record's production default is no claim")
        #expect(UnverifiedJWS.environment(ofTransaction: named("Staging")) == nil)
        #expect(UnverifiedJWS.environment(ofTransaction: "a.b.c") == nil)
    }
}
