import Foundation
import StoreSyncAPI
import StoreSyncCore
import Testing

@Suite struct VerdictAndCredentialsTests {
    @Test func legacyFlagVerdictHasEmptyIdsAndNamesTheProduct() throws {
        let verdict = Verdict.legacyFlag(productId: "lifetime", verdict: .unverifiedClaim)
        #expect(verdict.isLegacyFlag)
        #expect(verdict.productId == "lifetime")
        #expect(String(decoding: try StoreSyncJSON.makeEncoder().encode(verdict), as: UTF8.self)
            == #"{"originalTransactionId":"","productId":"lifetime","transactionId":"","verdict":"unverifiedClaim"}"#)
    }

    @Test func transactionVerdictIsNotALegacyFlag() {
        #expect(!Verdict(originalTransactionId: "1", transactionId: "2", verdict: .accepted).isLegacyFlag)
    }

    @Test func everyVerdictKindHasItsWireName() {
        #expect(VerdictKind.allCases.map(\.rawValue)
            == ["accepted", "known", "rejected", "ownedByOtherAccount", "transferred", "unverifiedClaim"])
    }

    @Test func unknownVerdictKindIsRejected() {
        let body = Data(#"{"originalTransactionId":"1","transactionId":"1","verdict":"maybe"}"#.utf8)
        #expect(throws: DecodingError.self) { try StoreSyncJSON.makeDecoder().decode(Verdict.self, from: body) }
    }

    @Test func credentialsNeverShowThePassword() {
        let credentials = Credentials(email: "a@example.com", password: "hunter2-secret", deviceName: "iPad")
        #expect(!String(describing: credentials).contains("hunter2-secret"))
        #expect(!String(reflecting: credentials).contains("hunter2-secret"))
        #expect(String(describing: credentials).contains("a@example.com"))
    }

    @Test func catalogResponseListsProductsByIdAndRebuildsTheCatalog() {
        let catalog = Catalog([
            CatalogProduct(productId: "b", type: .consumable, entitlements: []),
            CatalogProduct(productId: "a", type: .nonConsumable, entitlements: ["premium"]),
        ])
        let response = CatalogResponse(catalog)
        #expect(response.products.map(\.productId) == ["a", "b"])
        #expect(response.catalog == catalog)
    }
}
