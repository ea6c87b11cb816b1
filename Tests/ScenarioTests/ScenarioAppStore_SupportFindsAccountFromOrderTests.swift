import AppStorePayloads
import Foundation
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite("App Store: support and the order id") struct SupportFindsAccountFromOrderTests {
    @Test("Support finds the account from an order id")
    func theOrderIdOnAppleReceiptEmailLeadsSupportToTheAccount() async throws {
        try await Scenario.runWithAppStore { scenario, apple in
            let server = scenario.server
            try await scenario.accounts("X", "Y")
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server)
            let pass = TestPurchase.buy(TestCatalog.seasonPass, on: server)
            let a = try await scenario.device("A", signedInTo: "X")
            _ = try await a.client.record(signedTransaction: lifetime.jws)
            let b = try await scenario.device("B", signedInTo: "Y")
            _ = try await b.client.record(signedTransaction: pass.jws)
            await apple.standIn.addTransactions([lifetime.record], customer: "x")
            await apple.standIn.addTransactions([pass.record], customer: "y")
            await apple.standIn.addOrder("MK5TTTVWJH", transactionIds: [lifetime.record.transactionId])
            await apple.standIn.addOrder("MQ2BBBVWJX", transactionIds: [pass.record.transactionId])

            // The customer of X writes in with the order id from Apple's receipt e-mail.
            let response = try await server.send("GET", "/v1/admin/orders/MK5TTTVWJH", token: server.adminKey)
            #expect(response.status == 200, "\(response.problem?.detail ?? "")")
            let order = try response.decode(OrderLookupResponse.self)
            #expect(order.purchases.map(\.ownerAccountId) == [scenario.account("X").id])
            #expect(order.accounts.map(\.accountId) == [scenario.account("X").id])
            #expect(order.accounts.first?.entitlements.map(\.entitlementId) == ["premium"])
            #expect(order.transactions.map(\.transactionId) == [lifetime.record.transactionId])

            let other = try await server.send("GET", "/v1/admin/orders/MQ2BBBVWJX", token: server.adminKey)
                .decode(OrderLookupResponse.self)
            #expect(other.accounts.map(\.accountId) == [scenario.account("Y").id])
            try await scenario.check(Expectation(
                accounts: ["X": ["premium"], "Y": ["season"]],
                owners: [lifetime.record.originalTransactionId: "X", pass.record.originalTransactionId: "Y"], purchases: 2))
        }
    }
}
