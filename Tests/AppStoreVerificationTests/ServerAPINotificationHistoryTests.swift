import AppStoreVerification
import Foundation
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct ServerAPINotificationHistoryTests {
    static let hour: TimeInterval = 3600

    /// Five notifications an hour apart from the fixtures' signing moment; the third reached
    /// the server, the others did not.
    static func addNotifications(to standIn: AppStoreServerAPIStandIn) async -> [UUID] {
        let chain = ServerAPIHarness.subscription(original: 1000, count: 1)
        var uuids: [UUID] = []
        for index in 0..<5 {
            let signedDate = Fixtures.signedAt.addingTimeInterval(Double(index) * hour)
            let delivered = [AppStoreSendAttempt(attemptDate: signedDate, sendAttemptResult: .success)]
            let notification = AppStoreServerAPIStandInNotification(
                type: index == 4 ? .refund : .didRenew, signedDate: signedDate,
                transaction: index == 4 ? ServerAPIHarness.lifetime("7000") : chain[0],
                sendAttempts: index == 2 ? delivered : nil)
            await standIn.addNotification(notification)
            uuids.append(notification.uuid)
        }
        await standIn.addTransactions(chain, customer: "subscriber")
        await standIn.addTransactions([ServerAPIHarness.lifetime("7000")], customer: "buyer")
        return uuids
    }

    static let everything = AppStoreNotificationHistoryQuery(
        startDate: Fixtures.signedAt.addingTimeInterval(-hour), endDate: ServerAPIHarness.start)

    @Test func everyPageIsFetchedInOrderWithItsSendAttempts() async throws {
        try await ServerAPIHarness.run(pageSize: 2) { harness in
            let uuids = await Self.addNotifications(to: harness.standIn)
            let history = try await harness.client().notificationHistory(Self.everything)

            #expect(history.items.map(\.notification.payload.notificationUUID) == uuids)
            #expect(history.items.allSatisfy { $0.notification.transaction != nil })
            #expect(history.items[2].sendAttempts.map(\.sendAttemptResult) == [.success])
            #expect(history.items[0].sendAttempts.map(\.sendAttemptResult) == [.noResponse])
            #expect(history.items[0].sendAttempts.first?.attemptDate == Fixtures.signedAt)
            #expect(history.items[4].notification.payload.notificationType == .refund)
            #expect(!history.hasMore && history.skipped.isEmpty)
            let requests = await harness.standIn.requests
            #expect(requests.map { $0.query["paginationToken"] } == [nil, "page-2", "page-4"])
            #expect(requests.allSatisfy { $0.method == "POST" && $0.path == "/inApps/v1/notifications/history" })
        }
    }

    @Test func requestBodyCarriesTheSpanInMillisecondsAndTheFilters() async throws {
        try await ServerAPIHarness.run { harness in
            let uuids = await Self.addNotifications(to: harness.standIn)
            var query = Self.everything
            query.transactionId = "7000"
            query.onlyFailures = true
            let history = try await harness.client().notificationHistory(query)

            #expect(history.items.map(\.notification.payload.notificationUUID) == [uuids[4]])
            let body = try #require(await harness.standIn.requests.first?.body)
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            #expect(fields["startDate"] as? Int64 == Self.everything.startDate.millisecondsSince1970)
            #expect(fields["endDate"] as? Int64 == ServerAPIHarness.start.millisecondsSince1970)
            #expect(fields["transactionId"] as? String == "7000")
            #expect(fields["onlyFailures"] as? Bool == true)
        }
    }

    @Test func onlyFailuresLeavesOutDeliveredNotifications() async throws {
        try await ServerAPIHarness.run { harness in
            let uuids = await Self.addNotifications(to: harness.standIn)
            var query = Self.everything
            query.onlyFailures = true
            let history = try await harness.client().notificationHistory(query)
            #expect(history.items.map(\.notification.payload.notificationUUID) == [uuids[0], uuids[1], uuids[3], uuids[4]])
        }
    }

    @Test func startTooFarInThePastIsRejectedWithApplesCode() async throws {
        try await ServerAPIHarness.run { harness in
            let query = AppStoreNotificationHistoryQuery(
                startDate: ServerAPIHarness.start.addingTimeInterval(-181 * 86_400), endDate: ServerAPIHarness.start)
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await harness.client().notificationHistory(query)
            }
            guard case .rejected(400, let payload) = error else {
                Issue.record("expected rejected(400), got \(String(describing: error))")
                return
            }
            #expect(payload.errorCode == .startDateTooFarInPast)
        }
    }

    @Test func emptySpanIsRefusedUnsent() async throws {
        try await ServerAPIHarness.run { harness in
            let query = AppStoreNotificationHistoryQuery(startDate: ServerAPIHarness.start, endDate: ServerAPIHarness.start)
            await #expect(throws: AppStoreServerAPIError.invalidArgument("startDate must be before endDate")) {
                try await harness.client().notificationHistory(query)
            }
            #expect(await harness.standIn.requests.isEmpty)
        }
    }
}
