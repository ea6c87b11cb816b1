import AppStorePayloads
import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Two `storesync` servers on one PostgreSQL behave as one (DESIGN §7, *Horizontal scale*):
/// each server's caches learn what the other changed, each webhook delivery is sent once, and
/// a notification Apple sends to both is processed once. Both are live servers on their own
/// ports, with their own caches, pools and delivery loops, as behind a load balancer.
@Suite struct ManyInstancesTests {
    private func withTwoServers(
        configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: (TestServer, TestServer) async throws -> Void
    ) async throws {
        try await withLiveServer(configure: configure) { first in
            try await withSecondInstance(of: first) { second in try await body(first, second) }
        }
    }

    @Test func aRefundProcessedByOneServerReachesTheOthersCachedSnapshot() async throws {
        try await withTwoServers { first, second in
            let account = try await first.signUp()
            let purchase = TestPurchases.record(purchased: first.clock.now().addingTimeInterval(-60))
            _ = try await first.buy(purchase, token: account.token)
            let cached = try await second.send("GET", "/v1/entitlements", token: account.token)
            #expect(try cached.decode(Snapshot.self).entitlements.map(\.entitlementId) == ["premium"])
            #expect(try await second.send("GET", "/v1/entitlements", token: account.token).body == cached.body, "cached")

            var refunded = purchase
            refunded.revocationDate = first.clock.now()
            refunded.signedDate = first.clock.now()
            #expect(try await first.notify(.refund, transaction: refunded) == "processed")
            try await eventually("the second server serves the refund") {
                try await second.entitlementIds(token: account.token).isEmpty
            }
            let etag = try await second.send("GET", "/v1/entitlements", token: account.token).header("ETag")
            #expect(etag == (try await first.send("GET", "/v1/entitlements", token: account.token)).header("ETag"))
        }
    }

    @Test func aSessionEndedOnOneServerEndsOnTheOther() async throws {
        try await withTwoServers { first, second in
            let account = try await first.signUp()
            #expect(try await second.send("GET", "/v1/entitlements", token: account.token).status == 200)
            #expect(try await first.send("DELETE", "/v1/sessions/current", token: account.token).status == 204)
            try await eventually("the second server refuses the token") {
                try await second.send("GET", "/v1/entitlements", token: account.token).status == 401
            }
        }
    }

    @Test func theSameNotificationSentToBothServersIsProcessedAndDeliveredOnce() async throws {
        try await WebhookReceiver.run { receiver in
            try await withTwoServers(configure: { $0.sendWebhooks(to: receiver.url) }) { first, second in
                let account = try await first.signUp()
                let purchase = TestPurchases.record(purchased: first.clock.now().addingTimeInterval(-60))
                _ = try await first.buy(purchase, token: account.token)
                var refunded = purchase
                refunded.revocationDate = first.clock.now()
                refunded.signedDate = first.clock.now()
                let payload = first.signer.signNotification(
                    type: .refund, signedDate: first.clock.now(), environment: .sandbox, transaction: refunded)
                let request = NotificationRequest(signedPayload: payload)

                async let viaFirst = first.send("POST", "/v1/notifications/appstore", json: request)
                async let viaSecond = second.send("POST", "/v1/notifications/appstore", json: request)
                let answers = try await [viaFirst, viaSecond]
                #expect(answers.map(\.status) == [200, 200])
                let outcomes = answers.compactMap { (try? JSONSerialization.jsonObject(with: $0.body) as? [String: String])?["status"] }
                #expect(outcomes.sorted() == ["duplicate", "processed"])
                #expect(try await first.count("notifications") == 1)
                #expect(try await first.events(of: purchase.originalTransactionId).map(\.kind) == ["purchaseClaimed", "revoked"])

                let requests = try await receiver.waitForDeliveries(count: 2)
                #expect(try requests.deliveredEvents().map(\.type) == ["purchaseClaimed", "revoked"])
                #expect(requests.count == 2)
            }
        }
    }

    @Test func eachEventIsDeliveredOnceWhenTwoServersDeliver() async throws {
        try await WebhookReceiver.run { receiver in
            try await withTwoServers(configure: { $0.sendWebhooks(to: receiver.url) }) { first, second in
                let servers = [first, second]
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<8 {
                        let server = servers[index % 2]
                        group.addTask {
                            let account = try await server.signUp()
                            for purchase in 0..<3 {
                                let via = servers[(index + purchase) % 2]
                                _ = try await via.buy(TestPurchases.record(purchased: via.clock.now()), token: account.token)
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                let appended = try await first.eventIds()
                #expect(appended.count == 24)
                let requests = try await receiver.waitForDeliveries(count: appended.count)
                let delivered = try requests.deliveredEvents()
                #expect(requests.count == appended.count, "no event was sent twice")
                #expect(Set(delivered.map(\.id)) == Set(appended.map(\.id)))
                for account in Set(appended.map(\.account)) {
                    let expected = appended.filter { $0.account == account }.map(\.id)
                    #expect(delivered.filter { $0.accountId == account }.map(\.id) == expected, "in order per account")
                }
                try await eventually("both servers recorded every delivery") {
                    try await second.webhookDeliveries(.delivered).count == appended.count
                }
            }
        }
    }
}
