import Foundation
import PostgresLibPQ
@testable import StoreSyncServer
import StoreSyncAPI
import StoreSyncTesting
import Testing

/// `GET /v1/admin/webhooks/deliveries` and `POST /v1/admin/webhooks/deliveries/{id}/retry`:
/// admin key only, bounded pages, every bad parameter named, nothing changed by a refusal.
@Suite struct WebhookAdminRouteTests {
    /// An app whose webhook receiver is up, with three events delivered.
    private func withThreeDeliveries(_ body: @Sendable (TestApp, [Int64]) async throws -> Void) async throws {
        try await WebhookReceiver.run { receiver in
            try await withServer(configure: { $0.sendWebhooks(to: receiver.url) }) { app in
                for _ in 0..<3 {
                    let account = try await app.signUp()
                    _ = try await app.buy(TestPurchases.record(purchased: app.clock.now()), token: account.token)
                }
                _ = try await receiver.waitForDeliveries(count: 3)
                try await eventually("all three are recorded") { try await app.webhookDeliveries(.delivered).count == 3 }
                try await body(app, try await app.eventIds().map(\.id))
            }
        }
    }

    @Test func deliveriesAreListedByStateInPagesOfTheAskedSize() async throws {
        try await withThreeDeliveries { app, ids in
            let first = try await app.send("GET", "/v1/admin/webhooks/deliveries?state=delivered&limit=2", token: app.adminKey)
            #expect(first.status == 200)
            let page = try first.decode(WebhookDeliveryPage.self)
            #expect(page.deliveries.map(\.id) == Array(ids.prefix(2)))
            let cursor = try #require(page.nextAfter)
            let second = try await app.send(
                "GET", "/v1/admin/webhooks/deliveries?state=delivered&limit=2&after=\(cursor)", token: app.adminKey)
            let last = try second.decode(WebhookDeliveryPage.self)
            #expect(last.deliveries.map(\.id) == [ids[2]])
            #expect(last.nextAfter == nil)
            #expect(try await app.webhookDeliveries(.pending).isEmpty)
            #expect(try await app.webhookDeliveries(.failed).isEmpty)
            #expect(last.deliveries.allSatisfy { $0.type == "purchaseClaimed" && $0.lastStatus == 200 })
        }
    }

    @Test(arguments: [
        ("", "state"), ("?state=lost", "state"), ("?state=PENDING", "state"), ("?state=failed&limit=0", "limit"),
        ("?state=failed&limit=501", "limit"), ("?state=failed&limit=ten", "limit"), ("?state=failed&after=-1", "after"),
        ("?state=failed&after=1e3", "after"), ("?state=failed&after=99999999999999999999", "after"),
    ])
    func aBadListingParameterIsNamed(query: String, field: String) async throws {
        try await withServer { app in
            let response = try await app.send("GET", "/v1/admin/webhooks/deliveries" + query, token: app.adminKey)
            #expect(response.status == 400)
            #expect(response.problem?.field == field)
        }
    }

    @Test func theRoutesNeedTheAdminKey() async throws {
        try await withServer { app in
            let device = try await app.signUp()
            for token in [nil, device.token, "not-the-admin-key-at-all"] {
                #expect(try await app.send("GET", "/v1/admin/webhooks/deliveries?state=failed", token: token).status == 401)
                #expect(try await app.send("POST", "/v1/admin/webhooks/deliveries/1/retry", token: token).status == 401)
            }
        }
    }

    @Test func aRetryOfABadUnknownOrPendingDeliveryChangesNothing() async throws {
        try await withThreeDeliveries { app, ids in
            let before = try await app.tableCounts()
            let delivered = try await app.webhookDeliveries(.delivered)
            for id in ["abc", "0", "-5", "1.5", "99999999999999999999"] {
                let response = try await app.send("POST", "/v1/admin/webhooks/deliveries/\(id)/retry", token: app.adminKey)
                #expect(response.status == 400, "id \(id)")
                #expect(response.problem?.field == "id")
            }
            let unknown = try await app.send(
                "POST", "/v1/admin/webhooks/deliveries/\(ids.max()! + 1000)/retry", token: app.adminKey)
            #expect(unknown.status == 404)
            #expect(try await app.tableCounts() == before)
            #expect(try await app.webhookDeliveries(.delivered) == delivered)
        }
    }

    @Test func aDeliveredEventIsSentAgainOnRequestAndAPendingOneIsNotRetriedTwice() async throws {
        try await WebhookReceiver.run { receiver in
            receiver.answer { _, index in index == 0 ? 200 : 500 }
            try await withServer(configure: { $0.sendWebhooks(to: receiver.url) }) { app in
                let account = try await app.signUp()
                _ = try await app.buy(TestPurchases.record(purchased: app.clock.now()), token: account.token)
                let id = try #require(try await app.eventIds().first?.id)
                try await eventually("delivered") { try await app.webhookDelivery(id)?.state == .delivered }

                let retried = try await app.send("POST", "/v1/admin/webhooks/deliveries/\(id)/retry", token: app.adminKey)
                #expect(retried.status == 202)
                try await eventually("sent again and refused") { try await app.webhookDelivery(id)?.lastStatus == 500 }
                let conflict = try await app.send("POST", "/v1/admin/webhooks/deliveries/\(id)/retry", token: app.adminKey)
                #expect(conflict.status == 409)
                #expect(conflict.problem?.type == ProblemType.conflict.uri)
                #expect(receiver.received.count == 2)
            }
        }
    }

    @Test func theQueueStatisticsCountWhatWaitsAndWhatFailed() async throws {
        let port = try FreePort.find()
        let clock = TestClock()
        try await withServer(clock: clock, configure: { $0.sendWebhooks(to: URL(string: "http://127.0.0.1:\(port)/")!) }) { app in
            for _ in 0..<2 {
                let account = try await app.signUp()
                _ = try await app.buy(TestPurchases.record(purchased: app.clock.now()), token: account.token)
            }
            let ids = try await app.eventIds().map(\.id)
            try await eventually("both were attempted") {
                try await app.webhookDeliveries(.pending).allSatisfy { $0.lastError != nil && $0.attempts == 1 }
            }
            clock.advance(by: 73 * 3_600)
            try await eventually("both failed for good") { try await app.webhookDeliveries(.failed).count == 2 }
            _ = try await app.send("POST", "/v1/admin/webhooks/deliveries/\(ids[0])/retry", token: app.adminKey)

            let statistics = try await app.database.withConnection { connection in
                try await WebhookDeliveryRepository().statistics(on: connection)
            }
            #expect(statistics.failed == 1)
            #expect(statistics.pending == 1)
            #expect(statistics.oldestPendingSince == (try await app.webhookDelivery(ids[0]))?.pendingSince)

            let metrics = try await app.send("GET", "/metrics")
            let page = MetricsSamples(metrics.body)
            for series in [
                "storesync_webhook_pending", "storesync_webhook_failed", "storesync_webhook_oldest_pending_age_seconds",
                "storesync_webhook_queue_sampled_timestamp_seconds",
            ] {
                #expect(page.text.contains("\n\(series) "), "\(series) is on /metrics")
            }
            #expect(page.value("storesync_webhook_failed_total") >= 2)
        }
    }
}
