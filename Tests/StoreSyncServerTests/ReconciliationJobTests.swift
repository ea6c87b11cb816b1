import AppStorePayloads
import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import StoreSyncAPI
import StoreSyncCore
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

/// The background reconciliation: subscriptions due without a notification are refreshed once,
/// by one server at a time, and the job hands over when its server stops.
@Suite struct ReconciliationJobTests {
    /// A job that looks every 50 ms and spaces refreshes by 10 ms.
    static func fastJob(_ settings: inout ServerConfiguration) {
        settings.reconcilePerMinute = 6_000
        settings.reconcileIdleInterval = .milliseconds(50)
    }

    private static func leaseHolder(_ server: TestServer) async throws -> UUID? {
        try await server.database.withConnection { connection in
            try await JobLeaseRepository().holder(of: ReconciliationJob.job, on: connection)
        }
    }

    /// Buys a subscription that expires in an hour, gives Apple its renewal, and moves the clock
    /// past the expiry: no device and no notification tells the server.
    private static func renewalNobodyReported(on server: TestServer, apple: AppStoreServerAPIStandIn) async throws
        -> TransactionRecord
    {
        let account = try await server.signUp()
        let subscription = TestPurchases.subscription(at: server.clock.now(), daysAgo: 30 - 1.0 / 24)
        _ = try await server.buy(subscription, token: account.token)
        await apple.addTransactions([subscription, TestPurchases.renewal(of: subscription)])
        server.clock.advance(by: 3_660)
        return subscription
    }

    @Test func aDueSubscriptionIsRefreshedOnceByOneOfTwoServers() async throws {
        try await withAppStoreAPIServer(configure: Self.fastJob) { server, apple in
            try await withSecondInstance(of: server) { second in
                let series = #"storesync_reconciliations_total{result="refreshed"}"#
                let refreshed = MetricsSamples(try await server.send("GET", "/metrics").body).value(series)
                let subscription = try await Self.renewalNobodyReported(on: server, apple: apple)
                let id = subscription.originalTransactionId
                let renewed = try await eventually { try await server.events(of: id).map(\.kind).contains("renewed") }
                #expect(renewed)
                #expect(MetricsSamples(try await server.send("GET", "/metrics").body).value(series) >= refreshed + 1)
                #expect(try await server.events(of: id).map(\.kind) == ["purchaseClaimed", "renewed"])
                #expect(await apple.requests.filter { $0.path == "/inApps/v2/history/\(id)" }.count == 1)
                #expect(await apple.requests.filter { $0.path == "/inApps/v1/subscriptions/\(id)" }.count == 1)
                #expect(try await server.count("job_leases") == 1)
                #expect(try await Self.leaseHolder(second) != nil)
            }
        }
    }

    @Test func whenTheServerRunningTheJobStopsAnotherTakesItOver() async throws {
        try await TestAppStoreAPI.run { apple in
            let first = try await apple.startServer(configure: Self.fastJob)
            let second: TestServer
            do {
                let held = try await eventually { try await Self.leaseHolder(first) != nil }
                try #require(held)
                second = try await TestServer.secondInstance(of: first)
            } catch {
                await first.stop()
                throw error
            }
            do {
                let holder = try await Self.leaseHolder(first)
                await first.stop()
                // Given up on stop: the lease would otherwise block the other server for minutes.
                let handedOver = try await eventually {
                    let now = try await Self.leaseHolder(second)
                    return now != nil && now != holder
                }
                #expect(handedOver)
                let subscription = try await Self.renewalNobodyReported(on: second, apple: apple.standIn)
                let renewed = try await eventually {
                    try await second.events(of: subscription.originalTransactionId).map(\.kind).contains("renewed")
                }
                #expect(renewed)
                await second.stop()
            } catch {
                await second.stop()
                throw error
            }
        }
    }

    @Test func theJobIsOffAtRateZero() async throws {
        try await withAppStoreAPIServer(configure: { settings in
            Self.fastJob(&settings)
            settings.reconcilePerMinute = 0
        }) { server, _ in
            try await server.startupRecoveryFinished()
            #expect(try await server.count("job_leases") == 0)
        }
    }

    @Test func onlySubscriptionsDueWithoutANewerRecordAreFound() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let due = TestPurchases.subscription(at: now, daysAgo: 30.1)
            let renewedFirst = TestPurchases.subscription(at: now, daysAgo: 30.1)
            let renewal = TestPurchases.renewal(of: renewedFirst)
            let longGone = TestPurchases.subscription(at: now, daysAgo: 32)
            let running = TestPurchases.subscription(at: now, daysAgo: 10)
            let purchased = now.addingTimeInterval(-30.1 * 86_400)
            let refunded = TestPurchases.record(
                TestCatalog.monthly, type: .autoRenewable, purchased: purchased, expires: purchased.addingTimeInterval(30 * 86_400),
                revoked: now.addingTimeInterval(-86_400), group: TestCatalog.subscriptionGroup)
            for record in [due, renewedFirst, renewal, longGone, running, refunded] {
                _ = try await server.buy(record, token: account.token)
            }
            let repository = ReconciliationRepository()
            let found = try await server.database.withConnection { connection in
                try await repository.dueSubscriptions(from: now.addingTimeInterval(-86_400), to: now, limit: 10, on: connection)
            }
            #expect(found.map(\.originalTransactionId) == [due.originalTransactionId])
            #expect(found.first?.expiresDate == due.expiresDate)

            let after = try await server.database.withConnection { connection in
                try await repository.markReconciled(due.originalTransactionId, at: now, on: connection)
                return try await repository.dueSubscriptions(from: now.addingTimeInterval(-86_400), to: now, limit: 10, on: connection)
            }
            #expect(after.isEmpty, "reconciled since it expired")
        }
    }

    @Test func aLeaseHasOneHolderUntilItIsGivenUpOrExpires() async throws {
        try await TestCluster.withPool(migrationsDirectory: TestDatabase.schemaDirectory) { pool in
            let leases = JobLeaseRepository()
            let (a, b) = (UUID(), UUID())
            try await pool.withConnection { connection in
                #expect(try await leases.acquire("job", holder: a, seconds: 60, on: connection))
                #expect(try await !leases.acquire("job", holder: b, seconds: 60, on: connection))
                #expect(try await leases.acquire("job", holder: a, seconds: 60, on: connection), "its holder renews it")
                try await leases.release("job", holder: b, on: connection)
                #expect(try await leases.holder(of: "job", on: connection) == a, "only its holder gives it up")
                try await leases.release("job", holder: a, on: connection)
                #expect(try await leases.holder(of: "job", on: connection) == nil)
                #expect(try await leases.acquire("job", holder: b, seconds: -1, on: connection))
                #expect(try await leases.acquire("job", holder: a, seconds: 60, on: connection), "an expired lease is taken over")
            }
        }
    }

    @Test func serversAskingForTheLeaseAtOnceGetItOnce() async throws {
        try await TestCluster.withPool(migrationsDirectory: TestDatabase.schemaDirectory, size: 8) { pool in
            let granted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await pool.withConnection { connection in
                            try await JobLeaseRepository().acquire("job", holder: UUID(), seconds: 60, on: connection)
                        }
                    }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(granted == 1)
        }
    }
}
