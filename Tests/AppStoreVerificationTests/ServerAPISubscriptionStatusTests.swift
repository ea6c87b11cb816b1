import AppStoreVerification
import Foundation
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct ServerAPISubscriptionStatusTests {
    @Test func eachSubscriptionComesWithItsNewestTransactionStatusAndRenewalInfo() async throws {
        try await ServerAPIHarness.run { harness in
            let expired = ServerAPIHarness.subscription(original: 1000, count: 3)
            var active = ServerAPIHarness.subscription(original: 2000, count: 1, product: "com.example.pro.yearly")
            active[0].expiresDate = ServerAPIHarness.start.addingTimeInterval(86_400)
            let renewal = RenewalInfo(
                originalTransactionId: "2000", autoRenewProductId: "com.example.pro.yearly",
                productId: "com.example.pro.yearly", autoRenewStatus: false, environment: .sandbox,
                signedDate: Fixtures.signedAt)
            await harness.standIn.addTransactions(expired + active + [ServerAPIHarness.lifetime("3000")])
            await harness.standIn.setRenewalInfo(renewal)

            let statuses = try await harness.client().subscriptionStatuses(for: "3000")

            #expect(statuses.skipped.isEmpty)
            let group = try #require(statuses.groups.first)
            #expect(statuses.groups.count == 1)
            #expect(group.subscriptionGroupIdentifier == "21345678")
            let byOriginal = Dictionary(uniqueKeysWithValues: group.items.map { ($0.transaction.record.originalTransactionId, $0) })
            #expect(byOriginal["1000"]?.status == .expired)
            #expect(byOriginal["1000"]?.transaction.record.transactionId == "1002")
            #expect(byOriginal["1000"]?.renewalInfo?.renewalInfo.autoRenewStatus == true)
            #expect(byOriginal["2000"]?.status == .active)
            #expect(byOriginal["2000"]?.renewalInfo?.renewalInfo.autoRenewStatus == false)
            #expect(statuses.transactions.count == 2)
            #expect(statuses.renewalInfos.count == 2)
            #expect(await harness.standIn.requests.map(\.path) == ["/inApps/v1/subscriptions/3000"])
        }
    }

    @Test func refusedRenewalInfoTakesItsSubscriptionOut() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.addTransactions(
                ServerAPIHarness.subscription(original: 1000, count: 1)
                    + ServerAPIHarness.subscription(original: 2000, count: 1))
            await harness.standIn.tamper(renewalInfo: "2000", .untrustedSigner)

            let statuses = try await harness.client().subscriptionStatuses(for: "1000")

            #expect(statuses.transactions.map(\.record.originalTransactionId) == ["1000"])
            #expect(statuses.skipped == [AppStoreSkippedItem(kind: .renewalInfo, reason: .invalidChain)])
            #expect(harness.warnings.count == 1)
        }
    }
}
