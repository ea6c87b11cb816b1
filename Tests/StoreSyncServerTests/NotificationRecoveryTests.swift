import AppStorePayloads
import AppStoreVerification
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// `POST /v1/admin/notifications/recover` and the pass each server runs as it starts: missed
/// notifications replayed through the notification path, once each.
@Suite struct NotificationRecoveryTests {
    /// A lifetime purchase the account holds, and Apple's refund of it signed now.
    private static func refundNobodyDelivered(on server: TestServer, token: String) async throws
        -> (purchase: TransactionRecord, notification: AppStoreServerAPIStandInNotification)
    {
        let purchase = TestPurchases.record(purchased: server.clock.now().addingTimeInterval(-3_600))
        _ = try await server.buy(purchase, token: token)
        server.clock.advance(by: 60)
        let notification = AppStoreServerAPIStandInNotification(
            type: .refund, signedDate: server.clock.now(),
            transaction: TestPurchases.refund(of: purchase, at: server.clock.now()))
        server.clock.advance(by: 60)
        return (purchase, notification)
    }

    @Test func aMissedRefundIsRecoveredAndASecondRecoveryIsANoOp() async throws {
        try await withAppStoreAPIServer { server, apple in
            try await server.startupRecoveryFinished()
            let account = try await server.signUp()
            let (purchase, notification) = try await Self.refundNobodyDelivered(on: server, token: account.token)
            await apple.addNotification(notification)
            let series = #"storesync_notification_recoveries_total{environment="Sandbox",result="recovered"}"#
            let passes = MetricsSamples(try await server.send("GET", "/metrics").body).value(series)

            let first = try await server.recoverNotifications()
            #expect(first.count("processed") == 1)
            #expect(MetricsSamples(try await server.send("GET", "/metrics").body).value(series) >= passes + 1)
            #expect(try await server.entitlementIds(token: account.token).isEmpty)
            let version = try await server.versions()[account.accountId]

            let second = try await server.recoverNotifications()
            #expect(second.count("processed") == 0)
            #expect(second.count("duplicate") == 1, "the pass reads the last hour again")
            #expect(try await server.versions()[account.accountId] == version)
            #expect(try await server.count("notifications") == 1)
            #expect(try await server.events(of: purchase.originalTransactionId).map(\.kind) == ["purchaseClaimed", "revoked"])
        }
    }

    @Test func aNotificationAlreadyDeliveredIsADuplicate() async throws {
        try await withAppStoreAPIServer { server, apple in
            try await server.startupRecoveryFinished()
            let account = try await server.signUp()
            let (_, notification) = try await Self.refundNobodyDelivered(on: server, token: account.token)
            await apple.addNotification(notification)
            let delivered = try await server.send(
                "POST", "/v1/notifications/appstore",
                json: NotificationRequest(signedPayload: apple.signer.signNotification(
                    type: notification.type, uuid: notification.uuid, signedDate: notification.signedDate,
                    environment: .sandbox, transaction: notification.transaction)))
            #expect(delivered.status == 200)

            let recovered = try await server.recoverNotifications()
            #expect(recovered.count("duplicate") == 1)
            #expect(try await server.count("notifications") == 1)
        }
    }

    @Test func withoutSinceOnlyUndeliveredNotificationsAreReadWithSinceAllAre() async throws {
        try await withAppStoreAPIServer { server, apple in
            try await server.startupRecoveryFinished()
            let account = try await server.signUp()
            let start = server.clock.now()
            let (_, refund) = try await Self.refundNobodyDelivered(on: server, token: account.token)
            var deliveredOnce = refund
            // Apple reached a server that answered 200, and the database was restored from an
            // earlier backup since: only a replay from a given moment brings it back.
            deliveredOnce.sendAttempts = [AppStoreSendAttempt(attemptDate: refund.signedDate, sendAttemptResult: .success)]
            await apple.addNotification(deliveredOnce)

            #expect(try await server.recoverNotifications().count("processed") == 0)
            #expect(try await server.recoverNotifications(since: start).count("processed") == 1)
            #expect(try await server.entitlementIds(token: account.token).isEmpty)
        }
    }

    @Test(arguments: [AppStoreServerAPIStandInTampering.foreignBundle, .untrustedSigner, .undecodable])
    func aNotificationThatFailsVerificationIsSkippedAndNeverStored(_ tampering: AppStoreServerAPIStandInTampering)
        async throws
    {
        try await withAppStoreAPIServer { server, apple in
            try await server.startupRecoveryFinished()
            let account = try await server.signUp()
            let (purchase, notification) = try await Self.refundNobodyDelivered(on: server, token: account.token)
            await apple.addNotification(notification)
            await apple.tamper(notification: notification.uuid, tampering)

            let recovered = try await server.recoverNotifications()
            #expect(recovered.skippedItems == 1)
            #expect(recovered.count("processed") == 0)
            #expect(try await server.count("notifications") == 0)
            #expect(try await server.events(of: purchase.originalTransactionId).map(\.kind) == ["purchaseClaimed"])
        }
    }

    @Test func everyEnvironmentTheServerTakesGetsAPassThatRecordsWhereItEnded() async throws {
        try await withAppStoreAPIServer { server, _ in
            try await server.startupRecoveryFinished()
            let recovered = try await server.recoverNotifications()
            #expect(recovered.passes.map(\.environment) == [.sandbox])
            #expect(recovered.passes.first?.until == server.clock.now())
            let recorded = try await server.database.withConnection { connection in
                try await connection.query("SELECT recovered_through FROM notification_recoveries WHERE environment = 'sandbox'")
                    .first?.decode(Date.self)
            }
            #expect(recorded == server.clock.now())
        }
    }

    @Test func aProductionServerReadsEachEnvironmentAsFarBackAsAppleKeepsIt() async throws {
        try await withAppStoreAPIServer(appleEnvironment: .production, configure: { $0.environment = .production }) {
            server, _ in
            let bothPassed = try await eventually { try await server.count("notification_recoveries") == 2 }
            try #require(bothPassed, "the recovery at start did not pass both environments")
            let day: TimeInterval = 86_400
            let now = server.clock.now()
            let sixtyDaysAgo = now.addingTimeInterval(-60 * day)
            let recovered = try await server.recoverNotifications(since: sixtyDaysAgo)
            #expect(recovered.passes.map(\.environment) == [.production, .sandbox])
            #expect(recovered.passes.first?.since == sixtyDaysAgo)
            #expect(recovered.passes.last?.since == now.addingTimeInterval(-29 * day), "Apple keeps 30 days of sandbox history")
        }
    }

    /// Apple (or the database) not answering as the server starts: the recovery is tried again
    /// until a pass succeeds, not left for the next restart.
    @Test func aRecoveryAtStartThatFailsIsTriedAgainUntilAPassSucceeds() async throws {
        try await TestAppStoreAPI.run { api in
            // The first history page the server asks for is not JSON.
            await api.standIn.enqueue(.malformedJSON)
            let server = try await api.startServer(configure: { $0.recoveryRetryDelay = .milliseconds(50) })
            do {
                try await server.startupRecoveryFinished()
                await server.stop()
            } catch {
                await server.stop()
                throw error
            }
        }
    }

    @Test("One environment's pass failing does not keep the other's from running and recording where it ended")
    func aFailedPassDoesNotStopTheOthers() async throws {
        try await withAppStoreAPIServer(appleEnvironment: .production, configure: { $0.environment = .production }) {
            server, apple in
            let bothPassed = try await eventually { try await server.count("notification_recoveries") == 2 }
            try #require(bothPassed, "the recovery at start did not pass both environments")
            let startedAt = server.clock.now()
            let account = try await server.signUp()
            let (purchase, notification) = try await Self.refundNobodyDelivered(on: server, token: account.token)
            await apple.addNotification(notification)
            // Production's pass runs first; its first page is not JSON.
            await apple.enqueue(.malformedJSON)

            let response = try await server.send(
                "POST", "/v1/admin/notifications/recover", token: server.adminKey, json: NotificationRecoveryRequest(since: nil))

            #expect(response.status == 502, "the failed pass is reported: \(response.problem?.detail ?? "")")
            #expect(try await server.events(of: purchase.originalTransactionId).map(\.kind) == ["purchaseClaimed", "revoked"],
                "the sandbox pass replayed its refund")
            let marks = try await server.database.withConnection { connection in
                try await connection.query("SELECT environment, recovered_through FROM notification_recoveries")
                    .map { try $0.decode((String, Date).self) }
            }
            let recorded = Dictionary(uniqueKeysWithValues: marks)
            #expect(recorded["sandbox"] == server.clock.now(), "the sandbox pass recorded its end")
            #expect(recorded["production"] == startedAt, "the failed pass recorded nothing")
        }
    }

    @Test func aSinceOutsideAppleHistoryOrInTheFutureIsRefused() async throws {
        try await withAppStoreAPIServer { server, _ in
            // This server takes only the sandbox, whose history Apple keeps for 30 days.
            let day: TimeInterval = 86_400
            for since in [
                server.clock.now().addingTimeInterval(-200 * day), server.clock.now().addingTimeInterval(-31 * day),
                server.clock.now().addingTimeInterval(60),
            ] {
                let response = try await server.send(
                    "POST", "/v1/admin/notifications/recover", token: server.adminKey,
                    json: NotificationRecoveryRequest(since: since))
                #expect(response.status == 400)
                #expect(response.problem?.field == "since")
            }
        }
    }

    @Test func hostileBodiesAreRefusedAndChangeNothing() async throws {
        try await withAppStoreAPIServer { server, _ in
            try await server.startupRecoveryFinished()
            let path = "/v1/admin/notifications/recover"
            let malformed = try await server.send("POST", path, token: server.adminKey, body: Data(#"{"since": "yesterday"}"#.utf8))
            #expect(malformed.status == 400)
            #expect(malformed.problem?.field == "since")
            let padding = String(repeating: "a", count: 100_000)
            let huge = try await server.send("POST", path, token: server.adminKey, body: Data("{\"pad\": \"\(padding)\"}".utf8))
            #expect(huge.status == 413)
            let untyped = try await server.send("POST", path, token: server.adminKey, body: Data("{}".utf8), contentType: nil)
            #expect(untyped.status == 415)
            let text = try await server.send("POST", path, token: server.adminKey, body: Data("{}".utf8), contentType: "text/plain")
            #expect(text.status == 415)
            let anonymous = try await server.send("POST", path, body: Data("{}".utf8))
            #expect(anonymous.status == 401)
            #expect(try await server.count("notifications") == 0)
        }
    }
}
