import AppStorePayloads
import Foundation
import Logging
import PostgresLibPQ
import Prometheus
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Without the App Store Server API settings everything else works as before, and the routes
/// that need the API say which settings are missing.
@Suite struct AppStoreAPIUnconfiguredTests {
    static let routes: [(method: String, path: String)] = [
        ("POST", "/v1/admin/purchases/100000000001/refresh"),
        ("POST", "/v1/admin/notifications/recover"),
        ("GET", "/v1/admin/orders/MK5TTTVWJH"),
        ("POST", "/v1/admin/appstore/test-notification"),
    ]

    @Test func everyRouteThatNeedsTheAPIAnswers503NamingTheMissingSettings() async throws {
        try await withServer { server in
            for (method, path) in Self.routes {
                let response = try await server.send(method, path, token: server.adminKey)
                #expect(response.status == 503, "\(method) \(path)")
                #expect(response.header("Content-Type") == "application/problem+json")
                #expect(response.problem?.type == ProblemType.appStoreAPINotConfigured.uri)
                for setting in ["STORESYNC_APPSTORE_API_KEY_ID", "STORESYNC_APPSTORE_API_ISSUER_ID", "STORESYNC_APPSTORE_API_PRIVATE_KEY"] {
                    #expect(response.problem?.detail?.contains(setting) == true, "\(path) does not name \(setting)")
                }
            }
        }
    }

    @Test func theRoutesAreRefusedWithoutTheAdminKeyEvenToADevice() async throws {
        try await withServer { server in
            let device = try await server.signUp()
            for (method, path) in Self.routes {
                let anonymous = try await server.send(method, path)
                let wrongKey = try await server.send(method, path, token: "test-admin-key-wrong")
                let deviceToken = try await server.send(method, path, token: device.token)
                #expect(anonymous.status == 401, "\(method) \(path)")
                #expect(wrongKey.status == 401, "\(method) \(path)")
                #expect(deviceToken.status == 401, "a device's token is no admin key: \(method) \(path)")
            }
        }
    }

    @Test func everythingElseWorksAsBefore() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let purchase = TestPurchases.record(purchased: server.clock.now())
            _ = try await server.buy(purchase, token: account.token)
            #expect(try await server.entitlementIds(token: account.token) == ["premium"])
            #expect(try await server.notify(.test) == "informational")
            #expect(try await server.count("notification_recoveries") == 0)
            #expect(try await server.count("job_leases") == 0)
        }
    }

    @Test func startUpSaysOnceAtNoticeThatTheAPIIsOffAndWhatThatTurnsOff() async throws {
        let (logger, logs) = CapturingLogHandler.logger()
        var configuration = ServerConfiguration(bundleId: "com.example.storesync", environment: .sandbox)
        configuration.logLevel = .notice
        configuration.schemaDirectory = TestDatabase.schemaDirectory.path
        _ = try await buildApplication(
            configuration: configuration,
            database: PostgresConfiguration(unixSocketDirectory: "/nonexistent", user: "nobody", database: "none"),
            metrics: PrometheusCollectorRegistry(), logger: logger)
        let said = logs.all.filter { $0.message.contains("App Store Server API") }
        #expect(said.map(\.level) == [.notice])
        #expect(said.first?.message.contains("STORESYNC_APPSTORE_API_PRIVATE_KEY") == true)
        #expect(said.first?.message.contains("503") == true)
    }
}
