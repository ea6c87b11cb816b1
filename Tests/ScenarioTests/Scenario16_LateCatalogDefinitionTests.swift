import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite("Product defined later") struct LateCatalogDefinitionTests {
    @Test("16. A product unknown to the catalog, later defined → the entitlement appears without the device re-sending")
    func entitlementAppearsOnceTheProductIsDefined() async throws {
        try await Scenario.run { scenario in
            let server = scenario.server
            try await scenario.accounts("X")
            let productId = "com.example.storesync.stickers"
            let stickers = TestPurchase.buy(productId, on: server)
            let purchase = stickers.record.originalTransactionId
            let unknown = Expectation(
                devices: ["A": [], "B": []], accounts: ["X": []], owners: [purchase: "X"], holdings: ["X": [purchase]],
                purchases: 1)
            let defined = Expectation(
                devices: ["A": [.init("stickers", product: productId, expiry: .lifetime)], "B": ["stickers"]],
                accounts: ["X": ["stickers"]], owners: [purchase: "X"], holdings: ["X": [purchase]], purchases: 1)

            let a = try await scenario.device("A", signedInTo: "X")
            let b = try await scenario.device("B", signedInTo: "X")
            let outcome = try await a.client.record(signedTransaction: stickers.jws)
            guard case .acknowledged(let verdict) = outcome else { throw TestServerError.unexpected("upload: \(outcome)") }
            #expect(verdict.verdict == .accepted, "an unknown product is kept, not refused")
            _ = try await b.client.refresh()
            try await scenario.check(unknown)

            server.clock.advance(by: 60)
            try await scenario.define(productId, ProductDefinition(type: .nonConsumable, entitlements: ["stickers"]))
            let uploadsBefore = a.transport.requests(to: "/v1/transactions") + b.transport.requests(to: "/v1/transactions")
            _ = try await a.client.refresh()
            _ = try await b.client.refresh()

            #expect(a.transport.requests(to: "/v1/transactions") + b.transport.requests(to: "/v1/transactions") == uploadsBefore)
            #expect(a.transport.requests(to: "/v1/restore") + b.transport.requests(to: "/v1/restore") == 0)
            try await scenario.check(defined)
        }
    }
}
