import AppStoreVerification
import Foundation
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct ServerAPITransactionHistoryTests {
    @Test func everyPageIsFetchedAndVerified() async throws {
        try await ServerAPIHarness.run(pageSize: 2) { harness in
            let chain = ServerAPIHarness.subscription(original: 1000, count: 5)
            await harness.standIn.addTransactions(chain)
            let history = try await harness.client().transactionHistory(for: "1002")

            #expect(history.transactions.map(\.record.transactionId) == ["1000", "1001", "1002", "1003", "1004"])
            #expect(history.transactions.allSatisfy { $0.record.evidence == .jws && $0.record.signedTransaction != nil })
            #expect(history.transactions.last?.record.expiresDate == chain.last?.expiresDate)
            #expect(history.skipped.isEmpty)
            #expect(!history.hasMore)
            let revisions = await harness.standIn.requests.map { $0.query["revision"] }
            #expect(revisions == [nil, "rev-2", "rev-4"])
        }
    }

    @Test func laterRevisionBringsOnlyWhatChanged() async throws {
        try await ServerAPIHarness.run(pageSize: 2) { harness in
            var chain = ServerAPIHarness.subscription(original: 1000, count: 3)
            await harness.standIn.addTransactions(chain)
            let client = try harness.client()
            let first = try await client.transactionHistory(for: "1000")
            let revision = try #require(first.revision)

            chain[2].revocationDate = ServerAPIHarness.start
            chain[2].revocationReason = .other
            chain[2].signedDate = ServerAPIHarness.start
            await harness.standIn.addTransactions([chain[2]])
            let later = try await client.transactionHistory(for: "1000", after: revision)

            #expect(later.transactions.map(\.record.transactionId) == ["1002"])
            #expect(later.transactions.first?.record.revocationDate == ServerAPIHarness.start)
            #expect(later.revision != revision)
            let unchanged = try await client.transactionHistory(for: "1000", after: later.revision)
            #expect(unchanged.transactions.isEmpty)
        }
    }

    @Test func onePageAtATimeCarriesTheRevision() async throws {
        try await ServerAPIHarness.run(pageSize: 2) { harness in
            await harness.standIn.addTransactions(ServerAPIHarness.subscription(original: 1000, count: 3))
            let client = try harness.client()
            let first = try await client.transactionHistoryPage(for: "1000")
            #expect(first.transactions.count == 2)
            #expect(first.hasMore)
            let second = try await client.transactionHistoryPage(for: "1000", revision: first.revision)
            #expect(second.transactions.map(\.record.transactionId) == ["1002"])
            #expect(!second.hasMore)
        }
    }

    @Test func collectingStopsAtMaximumPagesAndSaysWhereToContinue() async throws {
        try await ServerAPIHarness.run(pageSize: 2) { harness in
            await harness.standIn.addTransactions(ServerAPIHarness.subscription(original: 1000, count: 5))
            let client = try harness.client(maximumPages: 2)
            let partial = try await client.transactionHistory(for: "1000")
            #expect(partial.transactions.count == 4)
            #expect(partial.hasMore)
            let rest = try await client.transactionHistory(for: "1000", after: partial.revision)
            #expect(rest.transactions.map(\.record.transactionId) == ["1004"])
            #expect(!rest.hasMore)
        }
    }

    @Test func unknownTransactionIsNotFoundWithApplesCode() async throws {
        try await ServerAPIHarness.run { harness in
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await harness.client().transactionHistory(for: "404404")
            }
            guard case .notFound(let payload) = error else {
                Issue.record("expected notFound, got \(String(describing: error))")
                return
            }
            #expect(payload.errorCode == .transactionIdNotFound)
            #expect(payload.errorMessage == "Transaction id not found.")
        }
    }

    @Test(arguments: ["", "../../v1/lookup/X", "1000?revision=x", "1000 ", String(repeating: "9", count: 129)])
    func hostileIdIsRefusedUnsent(id: String) async throws {
        try await ServerAPIHarness.run { harness in
            await #expect(throws: AppStoreServerAPIError.self) { try await harness.client().transactionHistory(for: id) }
            #expect(await harness.standIn.requests.isEmpty)
        }
    }

    @Test func revisionTokenIsPercentEncoded() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.addTransactions([ServerAPIHarness.lifetime("5000")])
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await harness.client().transactionHistoryPage(for: "5000", revision: "a+b/c=&d")
            }
            #expect(error?.payload?.errorCode == .invalidRequestRevision)
            #expect(await harness.standIn.requests.first?.query == ["revision": "a+b/c=&d"])
        }
    }
}
