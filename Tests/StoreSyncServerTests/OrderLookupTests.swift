import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// `GET /v1/admin/orders/{orderId}`: from the order id on Apple's receipt e-mail to the account.
@Suite struct OrderLookupTests {
    @Test func anOrderLeadsToItsTransactionsTheirOwnerAndTheOwnersEntitlements() async throws {
        try await withAppStoreAPIServer { server, apple in
            let account = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now())
            _ = try await server.buy(purchase, token: account.token)
            await apple.addTransactions([purchase])
            await apple.addOrder("MK5TTTVWJH", transactionIds: [purchase.transactionId])

            let response = try await server.send("GET", "/v1/admin/orders/MK5TTTVWJH", token: server.adminKey)
            #expect(response.status == 200, "\(response.problem?.detail ?? "")")
            let order = try response.decode(OrderLookupResponse.self)
            #expect(order.environment == .sandbox)
            #expect(order.transactions.map(\.transactionId) == [purchase.transactionId])
            #expect(order.transactions.allSatisfy { $0.signedTransaction == nil })
            #expect(order.purchases == [.init(
                originalTransactionId: purchase.originalTransactionId, ownerAccountId: account.accountId,
                holders: [account.accountId])])
            #expect(order.accounts.map(\.accountId) == [account.accountId])
            #expect(order.accounts.first?.entitlements.map(\.entitlementId) == ["premium"])
        }
    }

    @Test func anOrderNobodyHoldsIsAnsweredWithoutAnAccount() async throws {
        try await withAppStoreAPIServer { server, apple in
            let purchase = TestPurchases.record(purchased: server.clock.now())
            await apple.addTransactions([purchase])
            await apple.addOrder("ORDER1", transactionIds: [purchase.transactionId])

            let order = try await server.send("GET", "/v1/admin/orders/ORDER1", token: server.adminKey)
                .decode(OrderLookupResponse.self)
            #expect(order.purchases.map(\.ownerAccountId) == [nil])
            #expect(order.accounts.isEmpty)
            #expect(try await server.count("purchase_owners") == 0, "a lookup writes nothing")
        }
    }

    @Test func anOrderAppleDoesNotKnowIsNotFound() async throws {
        try await withAppStoreAPIServer { server, _ in
            let response = try await server.send("GET", "/v1/admin/orders/NOSUCHORDER", token: server.adminKey)
            #expect(response.status == 404)
            #expect(response.problem?.type == ProblemType.notFound.uri)
        }
    }

    @Test(arguments: ["MK5-TTT", String(repeating: "A", count: 65), "MK5%20TTT", "%00", "..%2F"])
    func anOrderIdOfTheWrongShapeIsRefusedBeforeAppleIsAsked(_ orderId: String) async throws {
        try await withAppStoreAPIServer { server, apple in
            let response = try await server.send("GET", "/v1/admin/orders/\(orderId)", token: server.adminKey)
            #expect(response.status == 400)
            #expect(response.problem?.field == "orderId")
            #expect(await apple.requests.filter { $0.path.hasPrefix("/inApps/v1/lookup") }.isEmpty)
        }
    }

    @Test func aProductionServerFindsASandboxOrderInTheSandbox() async throws {
        try await withAppStoreAPIServer(configure: { $0.environment = .production }) { server, apple in
            let purchase = TestPurchases.record(purchased: server.clock.now())
            await apple.addTransactions([purchase])
            await apple.addOrder("REVIEW1", transactionIds: [purchase.transactionId])

            let order = try await server.send("GET", "/v1/admin/orders/REVIEW1", token: server.adminKey)
                .decode(OrderLookupResponse.self)
            #expect(order.environment == .sandbox)
            #expect(order.transactions.map(\.transactionId) == [purchase.transactionId])
        }
    }
}
