import AppStoreVerification
import Foundation
import StoreSyncCore
import StoreSyncTesting
import Testing

/// Signed items Apple's API returns that fail verification are logged, counted and never
/// returned; the good items around them are.
@Suite struct ServerAPISkippedItemTests {
    @Test(arguments: [
        (AppStoreServerAPIStandInTampering.foreignBundle, VerificationError.bundleMismatch),
        (.untrustedSigner, .invalidChain),
    ])
    func spoiledTransactionIsSkippedAndTheRestReturned(
        tampering: AppStoreServerAPIStandInTampering, reason: VerificationError
    ) async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.addTransactions(ServerAPIHarness.subscription(original: 1000, count: 3))
            await harness.standIn.tamper(transaction: "1001", tampering)

            let history = try await harness.client().transactionHistory(for: "1000")

            #expect(history.transactions.map(\.record.transactionId) == ["1000", "1002"])
            #expect(history.skipped == [AppStoreSkippedItem(kind: .transaction, reason: reason)])
            #expect(harness.warnings == ["skipped a signed item from the App Store Server API that failed verification"])
        }
    }

    @Test func undecodableTransactionIsSkipped() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.addTransactions([ServerAPIHarness.lifetime("5000"), ServerAPIHarness.lifetime("5001")])
            await harness.standIn.tamper(transaction: "5000", .undecodable)

            let history = try await harness.client().transactionHistory(for: "5001")

            #expect(history.transactions.map(\.record.transactionId) == ["5001"])
            let skipped = try #require(history.skipped.first)
            #expect(history.skipped.count == 1)
            guard case .malformed = skipped.reason else {
                Issue.record("expected malformed, got \(skipped.reason)")
                return
            }
        }
    }

    @Test func spoiledNotificationIsSkipped() async throws {
        try await ServerAPIHarness.run { harness in
            let uuids = await ServerAPINotificationHistoryTests.addNotifications(to: harness.standIn)
            await harness.standIn.tamper(notification: uuids[1], .foreignBundle)
            await harness.standIn.tamper(notification: uuids[3], .untrustedSigner)

            let history = try await harness.client().notificationHistory(ServerAPINotificationHistoryTests.everything)

            #expect(history.items.map(\.notification.payload.notificationUUID) == [uuids[0], uuids[2], uuids[4]])
            #expect(history.skipped.map(\.reason) == [.bundleMismatch, .invalidChain])
            #expect(history.skipped.allSatisfy { $0.kind == .notification })
            #expect(harness.warnings.count == 2)
        }
    }

    @Test func spoiledOrderTransactionIsSkipped() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.addTransactions([ServerAPIHarness.lifetime("5000"), ServerAPIHarness.lifetime("5001")])
            await harness.standIn.addOrder("MK5TTTVWJH", transactionIds: ["5000", "5001"])
            await harness.standIn.tamper(transaction: "5001", .foreignBundle)

            let order = try await harness.client().lookUpOrder("MK5TTTVWJH")

            #expect(order.transactions.map(\.record.transactionId) == ["5000"])
            #expect(order.skipped == [AppStoreSkippedItem(kind: .transaction, reason: .bundleMismatch)])
        }
    }

    @Test func spoiledSubscriptionTransactionTakesItsSubscriptionOut() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.addTransactions(ServerAPIHarness.subscription(original: 1000, count: 2))
            await harness.standIn.tamper(transaction: "1001", .untrustedSigner)

            let statuses = try await harness.client().subscriptionStatuses(for: "1000")

            #expect(statuses.transactions.isEmpty)
            #expect(statuses.groups.first?.items.isEmpty == true)
            #expect(statuses.skipped == [AppStoreSkippedItem(kind: .transaction, reason: .invalidChain)])
        }
    }

    @Test func spoiledTestNotificationIsReportedNotReturned() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:\(try FreePort.find())/v1/notifications/appstore"))
        try await ServerAPIHarness.run(notificationURL: url) { harness in
            let client = try harness.client()
            let token = try await client.requestTestNotification()
            let uuidText = try #require(token.split(separator: "_").first)
            let uuid = try #require(UUID(uuidString: String(uuidText)))
            await harness.standIn.tamper(notification: uuid, .untrustedSigner)

            let status = try await client.testNotificationStatus(token)

            #expect(status.notification == nil)
            #expect(status.skipped == [AppStoreSkippedItem(kind: .notification, reason: .invalidChain)])
        }
    }
}
