import AppStorePayloads
import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// The two-device scenarios on PostgreSQL scaled out as DESIGN §7 names it: writes, sign-ins
/// and sessions through PgBouncer in transaction pooling (`DATABASE_URL`), entitlement lookups
/// from a hot standby (`DATABASE_READ_URL`), and `LISTEN` on a direct connection
/// (`DATABASE_LISTEN_URL`) or, without one, a poll. One primary, standby and pooler serve the
/// whole suite (``PostgresLibPQTesting/TestReplication``).
///
/// Another device sees a change once the standby has replayed it (the tests wait for that,
/// as a deployment waits its replication lag); the device that made it sees it at once.
@Suite("Through PgBouncer and a hot standby", .serialized) struct ReplicatedDeploymentTests {
    /// A liveness bound for a poll to reach another instance, not a performance assertion.
    static let patience: Duration = .seconds(60)

    static func settings(
        _ databases: TestReplication.Databases, listening: Bool, cache: Bool = true
    ) -> @Sendable (inout ServerConfiguration) -> Void {
        { settings in
            settings.database.poolMode = .transaction
            settings.database.readURL = TestCluster.url(of: databases.standby)
            if listening { settings.database.listenURL = TestCluster.url(of: databases.primary) }
            settings.databaseChangePollMilliseconds = 50
            // The standby answers whenever it has what the device has seen; the bound is not what is tested.
            settings.databaseReadMaxLagMilliseconds = 600_000
            if !cache { settings.snapshotCacheEntries = 0 }
        }
    }

    /// `storesync_entitlement_lookups_total{source}` as the server's `/metrics` page reads now.
    static func lookups(from source: String, on server: TestServer) async throws -> Double {
        let page = try await server.send("GET", "/metrics")
        return MetricsSamples(page.body).value("storesync_entitlement_lookups_total{source=\"\(source)\"}")
    }

    @Test("Sign-up and restore on A, lookup on B, refund by notification: the pooler for writes, the standby for lookups")
    func twoDevicesThroughThePoolerAndTheStandby() async throws {
        let databases = try await TestReplication.makeDatabase(migrationsDirectory: TestDatabase.schemaDirectory)
        try await Scenario.run(database: databases.pooled, configure: Self.settings(databases, listening: true)) { scenario in
            let server = scenario.server
            try await scenario.accounts("X")
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server)
            let purchase = lifetime.record.originalTransactionId
            let entitled = Expectation(
                devices: ["A": ["premium"], "B": ["premium"]], accounts: ["X": ["premium"]], owners: [purchase: "X"],
                events: [purchase: ["purchaseClaimed"]], holdings: ["X": [purchase]], purchases: 1)
            let refunded = Expectation(
                devices: ["A": [], "B": []], accounts: ["X": []], events: [purchase: ["purchaseClaimed", "revoked"]])

            // A session is used the moment sign-in made it: sessions are read on the primary.
            let a = try await scenario.device("A", signedInTo: "X")
            _ = try await a.client.record(signedTransaction: lifetime.jws)
            // A holds the version its upload made; its next lookup is never older, replayed or not.
            _ = try await a.client.refresh()
            #expect(await a.client.entitlements(at: server.clock.now()).version == (try await server.versions())[scenario.account("X").id])

            try await TestReplication.waitForStandby()
            _ = try await scenario.device("B", signedInTo: "X")
            try await scenario.check(entitled)

            server.clock.advance(by: 3600)
            try await scenario.notify(.refund, transaction: lifetime.refunded(at: server.clock.now(), on: server).record)
            try await TestReplication.waitForStandby()
            _ = try await scenario.device("A").client.refresh()
            _ = try await scenario.device("B").client.refresh()
            try await scenario.check(refunded)
        }
    }

    @Test("Without a snapshot cache every lookup a caught-up standby can answer is its, the restoring device's included")
    func theStandbyServesLookupsAndTheRestoringDeviceNeverSeesLess() async throws {
        let databases = try await TestReplication.makeDatabase(migrationsDirectory: TestDatabase.schemaDirectory)
        try await Scenario.run(database: databases.pooled, configure: Self.settings(databases, listening: true, cache: false)) {
            scenario in
            let server = scenario.server
            try await scenario.accounts("X")
            let a = try await scenario.device("A", signedInTo: "X")
            let before = try await Self.lookups(from: "standby", on: server)
            let deadline = ContinuousClock.now + Self.patience
            // The monitor measures the standby right after start; until then the primary answers.
            while try await Self.lookups(from: "standby", on: server) == before, ContinuousClock.now < deadline {
                try await TestReplication.waitForStandby()
                _ = try await scenario.device("B", signedInTo: "X").client.refresh()
            }
            #expect(try await Self.lookups(from: "standby", on: server) > before)
            // A standby in use has a measured lag (−1 would say it is unusable).
            let lagMeasured = try await eventually {
                let page = MetricsSamples(try await server.send("GET", "/metrics").body)
                return page.text.contains("\nstoresync_standby_lag_seconds ") && page.value("storesync_standby_lag_seconds") >= 0
            }
            #expect(lagMeasured, "storesync_standby_lag_seconds")

            for _ in 0..<5 {
                let bought = TestPurchase.buy(TestCatalog.lifetime, on: server)
                _ = try await a.client.record(signedTransaction: bought.jws)
                _ = try await a.client.refresh()
                let held = await a.client.entitlements(at: server.clock.now()).version
                #expect(held == (try await server.versions())[scenario.account("X").id], "A never sees less than it wrote")
            }
        }
    }

    @Test("Without LISTEN behind the pooler, a second instance sees changes by polling; the device that made one sees it at once")
    func aSecondInstanceSeesChangesByPolling() async throws {
        let databases = try await TestReplication.makeDatabase(migrationsDirectory: TestDatabase.schemaDirectory)
        try await withLiveServer(database: databases.pooled, configure: Self.settings(databases, listening: false)) { first in
            try await withSecondInstance(of: first) { second in
                let email = TestAccount.email()
                let account = try await first.signUp(email: email)
                let onSecond = TestDevice(server: second)
                try await onSecond.client.signIn(email: email, password: TestAccount.password, deviceName: "B")
                let onFirst = TestDevice(server: first)
                try await onFirst.client.signIn(email: email, password: TestAccount.password, deviceName: "A")
                _ = try await onSecond.client.refresh()

                _ = try await onFirst.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: first).jws)
                let written = try #require(try await first.versions()[account.accountId])
                // A refreshes on the second instance holding the new version: no cache or standby answers it older.
                let aOnSecond = onFirst.relaunched(on: second)
                _ = try await aOnSecond.client.refresh()
                #expect(await aOnSecond.client.entitlements(at: second.clock.now()).version == written)

                try await TestReplication.waitForStandby()
                let deadline = ContinuousClock.now + Self.patience
                while await onSecond.client.entitlements(at: second.clock.now()).version != written, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                    _ = try await onSecond.client.refresh()
                }
                #expect(await onSecond.client.entitlements(at: second.clock.now()).version == written)

                // A sign-out on the first instance ends the session on the second within a few polls.
                let token = account.token
                #expect(try await second.send("GET", "/v1/entitlements", token: token).status == 200)
                #expect(try await first.send("DELETE", "/v1/sessions/current", token: token).status == 204)
                var status = 200
                while status != 401, ContinuousClock.now < deadline + Self.patience {
                    try await Task.sleep(for: .milliseconds(50))
                    status = try await second.send("GET", "/v1/entitlements", token: token).status
                }
                #expect(status == 401)
            }
        }
    }
}
