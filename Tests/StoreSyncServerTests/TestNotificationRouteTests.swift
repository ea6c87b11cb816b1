import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// `POST /v1/admin/appstore/test-notification`: Apple is asked for a `TEST` notification, and the
/// answer says whether it reached the server.
@Suite struct TestNotificationRouteTests {
    @Test func aTestNotificationThatReachesTheServerIsReportedAsArrived() async throws {
        try await withAppStoreAPIServer { server, _ in
            let response = try await server.send("POST", "/v1/admin/appstore/test-notification", token: server.adminKey)
            #expect(response.status == 200, "\(response.problem?.detail ?? "")")
            let test = try response.decode(TestNotificationResponse.self)
            #expect(test.arrived)
            #expect(test.notificationUUID != nil)
            #expect(test.sendAttempts.map(\.result) == ["SUCCESS"])
            let recorded = try await server.database.withConnection { connection in
                try await connection.query("SELECT notification_type FROM notifications").map { try $0.decode(String.self) }
            }
            #expect(recorded == ["TEST"])
            let metrics = MetricsSamples(try await server.send("GET", "/metrics").body)
            #expect(metrics.value(#"storesync_appstore_notifications_total{type="TEST",outcome="informational"}"#) >= 1)
        }
    }

    @Test func aTestNotificationThatCannotReachTheServerIsReportedAsNotArrived() async throws {
        try await withAppStoreAPIServer(configure: { $0.testNotificationWait = .milliseconds(300) }) { server, apple in
            await apple.setNotificationURL(URL(string: "http://127.0.0.1:9/v1/notifications/appstore"))
            let test = try await server.send("POST", "/v1/admin/appstore/test-notification", token: server.adminKey)
                .decode(TestNotificationResponse.self)
            #expect(!test.arrived)
            #expect(test.sendAttempts.map(\.result) == ["NO_RESPONSE"])
            #expect(try await server.count("notifications") == 0)
        }
    }

    @Test func anAppWithoutANotificationURLIsToldSo() async throws {
        try await withAppStoreAPIServer { server, apple in
            await apple.setNotificationURL(nil)
            let response = try await server.send("POST", "/v1/admin/appstore/test-notification", token: server.adminKey)
            #expect(response.status == 404)
            #expect(response.problem?.detail?.contains("No App Store Server Notifications URL") == true)
        }
    }
}
