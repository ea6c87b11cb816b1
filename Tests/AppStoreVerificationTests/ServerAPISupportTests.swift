import AppStoreVerification
import Foundation
import Hummingbird
import NIOConcurrencyHelpers
import StoreSyncCore
import StoreSyncTesting
import Testing

/// Look Up Order ID and test notifications: what support asks the App Store.
@Suite struct ServerAPISupportTests {
    @Test func orderLookupReturnsTheOrdersVerifiedTransactions() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.addTransactions([ServerAPIHarness.lifetime("5000"), ServerAPIHarness.lifetime("5001")])
            await harness.standIn.addOrder("MK5TTTVWJH", transactionIds: ["5000", "5001"])

            let order = try await harness.client().lookUpOrder("MK5TTTVWJH")

            #expect(order.isValid)
            #expect(order.transactions.map(\.record.transactionId) == ["5000", "5001"])
            #expect(order.transactions.allSatisfy { $0.payload.bundleId == Fixtures.bundleId })
            #expect(await harness.standIn.requests.map(\.path) == ["/inApps/v1/lookup/MK5TTTVWJH"])
        }
    }

    @Test func unknownOrderIsInvalidWithNoTransactions() async throws {
        try await ServerAPIHarness.run { harness in
            let order = try await harness.client().lookUpOrder("NOSUCHORDER")
            #expect(!order.isValid)
            #expect(order.transactions.isEmpty)
        }
    }

    @Test func testNotificationIsDeliveredAndItsStatusSaysItArrived() async throws {
        let received = NIOLockedValueBox<[String]>([])
        let router = Router()
        router.post("/v1/notifications/appstore") { request, _ -> HTTPResponse.Status in
            let body = try await request.body.collect(upTo: 1 << 20)
            received.withLockedValue { $0.append(String(buffer: body)) }
            return .ok
        }
        try await LoopbackHTTPServer.run(router: router, label: "test.notification-receiver") { port in
            let url = try #require(URL(string: "http://127.0.0.1:\(port)/v1/notifications/appstore"))
            try await ServerAPIHarness.run(notificationURL: url) { harness in
                let client = try harness.client()
                let token = try await client.requestTestNotification()
                let status = try await client.testNotificationStatus(token)

                #expect(status.arrived)
                #expect(status.notification?.payload.notificationType == .test)
                #expect(status.notification?.payload.data?.bundleId == Fixtures.bundleId)
                #expect(status.sendAttempts.map(\.sendAttemptResult) == [.success])
                let posted = try #require(received.withLockedValue { $0 }.first)
                let fields = try JSONDecoder().decode([String: String].self, from: Data(posted.utf8))
                let signedPayload = try #require(fields["signedPayload"])
                let delivered = try await Fixtures.verifier(trusting: harness.pki).verifyNotification(signedPayload)
                #expect(delivered.payload.notificationUUID == status.notification?.payload.notificationUUID)
            }
        }
    }

    @Test func undeliveredTestNotificationSaysItDidNotArrive() async throws {
        // A port nothing listens on: the stand-in's delivery fails as Apple's would.
        let url = try #require(URL(string: "http://127.0.0.1:\(try FreePort.find())/v1/notifications/appstore"))
        try await ServerAPIHarness.run(notificationURL: url) { harness in
            let client = try harness.client()
            let status = try await client.testNotificationStatus(try await client.requestTestNotification())
            #expect(!status.arrived)
            #expect(status.sendAttempts.map(\.sendAttemptResult) == [.noResponse])
        }
    }

    @Test func testNotificationWithoutANotificationURLIsNotFound() async throws {
        try await ServerAPIHarness.run { harness in
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await harness.client().requestTestNotification()
            }
            #expect(error?.payload?.errorCode == .serverNotificationURLNotFound)
        }
    }

    @Test func unknownTestNotificationTokenIsNotFound() async throws {
        try await ServerAPIHarness.run { harness in
            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await harness.client().testNotificationStatus("0f0e0d0c-0000-4000-8000-000000000000_1750000000000")
            }
            #expect(error?.payload?.errorCode == .testNotificationNotFound)
        }
    }
}
