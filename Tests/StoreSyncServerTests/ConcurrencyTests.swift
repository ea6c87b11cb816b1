import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite struct ConcurrencyTests {
    @Test func fiftyConcurrentRestoresOfOneAccountConvergeToTheSequentialResult() async throws {
        // The fiftieth restore waits for the 49 before it (one account's writes take turns):
        // beside the whole suite on two cores that passed the 10 s bounds of a request's wait for
        // a connection and for the account's lock, and one was answered 503. The bounds have
        // tests of their own; this one checks what the restores converge to.
        try await withServer(configure: {
            $0.databasePoolSize = 8
            $0.databasePoolCheckoutTimeout = .seconds(120)
            $0.databaseLockTimeoutSeconds = 120
        }) { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let purchases = (0..<10).map { index in
                TestPurchases.record(
                    index.isMultiple(of: 2) ? TestCatalog.lifetime : TestCatalog.coins,
                    type: index.isMultiple(of: 2) ? .nonConsumable : .consumable,
                    purchased: now.addingTimeInterval(Double(index)))
            }
            let entries = purchases.map { server.entry($0) }
            let responses = try await withThrowingTaskGroup(of: SyncResponse.self) { group in
                for index in 0..<50 {
                    // Each device sends an overlapping slice of the same purchases.
                    let slice = Array(entries[(index % 5)..<(index % 5 + 6)])
                    group.addTask { try await server.restore(slice, token: account.token) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(responses.count == 50)
            // Every purchase was accepted exactly once across all restores, known otherwise.
            var accepted: [String: Int] = [:]
            for verdict in responses.flatMap(\.verdicts) where verdict.verdict == .accepted {
                accepted[verdict.transactionId, default: 0] += 1
            }
            #expect(accepted.count == 10)
            #expect(accepted.values.allSatisfy { $0 == 1 })

            let final = try await server.snapshot(token: account.token)
            let sequential = Ledger(records: purchases)
            #expect(Set(final.transactions.map(\.transactionId)) == Set(sequential.records.map(\.transactionId)))
            #expect(try await server.count("transactions") == 10)
            #expect(try await server.count("purchase_owners") == 10)
            // One bump per accepted version-set: the version counts the changes, not the calls.
            #expect(final.version <= 1 + 10)
            #expect(final.entitlements.map(\.entitlementId) == ["premium"])
        }
    }

    @Test(arguments: [TransferPolicy.transfer, .keep])
    func twoAccountsRacingForOnePurchaseEndWithExactlyOneOwner(_ policy: TransferPolicy) async throws {
        try await withServer(configure: { $0.transferPolicy = policy }) { server in
            let accounts = try await withThrowingTaskGroup(of: SessionResponse.self) { group in
                for _ in 0..<6 { group.addTask { try await server.signUp() } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let purchase = TestPurchases.record(purchased: server.clock.now())
            let entry = server.entry(purchase)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for account in accounts {
                    group.addTask { _ = try await server.restore([entry], userInitiated: true, token: account.token) }
                }
                try await group.waitForAll()
            }
            let owner = try #require(try await server.owner(of: purchase.originalTransactionId))
            var entitled: [UUID] = []
            for account in accounts where try await server.entitlementIds(token: account.token) == ["premium"] {
                entitled.append(account.accountId)
            }
            #expect(entitled == [owner])
            #expect(try await server.holders(of: purchase.originalTransactionId) == [owner])
            #expect(try await server.count("transactions") == 1)
        }
    }
}
