import AppStorePayloads
import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import StoreSyncAPI
import StoreSyncServer
import StoreSyncTesting
import Testing

/// A server in transaction pooling (DESIGN §7), which reaches PostgreSQL only through PgBouncer
/// and hears of changes by polling, under the outage drill (``OutageDrill``) while the pooler
/// is stopped in each of its shutdown modes, while PostgreSQL behind it is, and while the
/// pooler is paused; and a refund made while the pooler is away, never served from the cache
/// once it is back. Pooler and cluster are each test's own.
@Suite(.serialized) struct PoolerOutageTests {
    @Test(arguments: EmbeddedPgBouncer.ShutdownMode.allCases)
    func requestsAnswer503WhileThePoolerIsDownAndTheServerRecoversWithNothingLost(mode: EmbeddedPgBouncer.ShutdownMode) async throws {
        try await withPooler(named: "outage-\(mode)") { pooler, pooled, _, _ in
            try await withLiveServer(database: pooled, configure: Self.throughThePooler) { server in
                try await OutageDrill(server: server, name: "PoolerOutageTests (\(mode))").run(
                    interrupt: {
                        await pooler.stop(mode: mode)
                        try await Self.outlastTheTrustWindow()
                    },
                    restore: { try await pooler.start() })
            }
        }
    }

    /// PostgreSQL itself stopped and started again behind the pooler, which stays up: the
    /// pooler answers for it meanwhile (its own errors, in place of the server's), and the
    /// server must read those as the database being away, as it reads a refused connection.
    ///
    /// The pooler is set as the README asks: with PgBouncer's defaults a query sent on a
    /// connection already open waits up to 120 s for PostgreSQL (`query_wait_timeout`), and
    /// PgBouncer tries PostgreSQL again only 15 s after a failed login (`server_login_retry`),
    /// so requests would hang through the outage and for up to 15 s after it.
    @Test(arguments: EmbeddedPostgres.ShutdownMode.allCases)
    func requestsAnswer503WhilePostgresBehindThePoolerIsDownAndTheServerRecoversWithNothingLost(
        mode: EmbeddedPostgres.ShutdownMode
    ) async throws {
        var options = EmbeddedPostgres.Options.forTesting
        // A commit is answered only once its WAL reached the kernel, so even an immediate
        // shutdown keeps it (as in DatabaseOutageTests).
        options.settings["synchronous_commit"] = "on"
        var pooling = EmbeddedPgBouncer.Options()
        pooling.queryWaitTimeoutSeconds = 2
        pooling.serverLoginRetrySeconds = 1
        try await withPooler(named: "behind-\(mode)", options: options, pooling: pooling) { pooler, pooled, _, cluster in
            try await withLiveServer(database: pooled, configure: Self.throughThePooler) { server in
                try await OutageDrill(server: server, name: "PoolerOutageTests (PostgreSQL \(mode))").run(
                    interrupt: {
                        try await cluster.stop(mode: mode)
                        try await Self.outlastTheTrustWindow()
                    },
                    restore: { try await cluster.start() })
            }
        }
    }

    /// The pooler paused (`PAUSE`, as around PostgreSQL's maintenance) and resumed under
    /// load. It holds every query meanwhile and fails each after its `query_wait_timeout`: a
    /// request answers 503 once a query it needed was held that long (a few seconds when it
    /// waited for a connection the pooler held too), never 2xx while the pause lasts; once
    /// resumed, the load goes on with nothing lost.
    @Test func requestsAnswer503WhileThePoolerIsPausedAndGoOnOnceItResumes() async throws {
        var pooling = EmbeddedPgBouncer.Options()
        pooling.queryWaitTimeoutSeconds = 1
        try await withPooler(named: "paused", pooling: pooling) { pooler, pooled, _, _ in
            try await withLiveServer(database: pooled, configure: Self.throughThePooler) { server in
                try await OutageDrill(server: server, name: "PoolerOutageTests (paused)").run(
                    interrupt: {
                        pooler.pause()
                        let paused = try await eventually(within: .seconds(60)) { pooler.logText.contains("pausing all activity") }
                        try #require(paused, "PgBouncer takes the signal to pause")
                        try await Self.outlastTheTrustWindow()
                    },
                    restore: { pooler.resume() })
            }
        }
    }

    /// Waits until the server's caches answer no more: a polling server serves what its last
    /// successful poll confirmed for three polling intervals (its `trustWindow`), so a lookup
    /// of a cached account may answer 200 that long after the database went away. No poll can
    /// succeed once it is away, so this much later every cache is off.
    private static func outlastTheTrustWindow() async throws {
        try await Task.sleep(for: .milliseconds(3 * pollMilliseconds + 200))
    }

    /// Instance A, behind the pooler, holds an account's snapshot in its cache; the pooler goes
    /// away, and instance B, which reaches PostgreSQL directly, is told of the purchase's refund
    /// meanwhile. A's polls fail and tell it nothing of the refund; once the pooler is back, A
    /// never answers with the purchase granted.
    @Test func aRefundMadeWhileThePoolerIsAwayIsNotServedFromTheCacheOnceItIsBack() async throws {
        try await withPooler(named: "outage-refund") { pooler, pooled, direct, _ in
            try await withLiveServer(database: pooled, configure: Self.throughThePooler) { a in
                try await withLiveServer(database: direct) { b in
                    try await refundWhileAway(a: a, b: b, pooler: pooler)
                }
            }
        }
    }

    /// Runs `body` with a cluster and a pooler in front of it, both the test's own, given the
    /// pooler, its database through the pooler, the same database reached directly, and the
    /// cluster; stops both whether `body` returned or threw.
    private func withPooler(
        named name: String, options: EmbeddedPostgres.Options = .forTesting, pooling: EmbeddedPgBouncer.Options = .init(),
        _ body: (EmbeddedPgBouncer, PostgresConfiguration, PostgresConfiguration, EmbeddedPostgres) async throws -> Void
    ) async throws {
        try await TestCluster.withDedicated(named: "pooler-\(name)", options: options) { cluster, direct in
            let pooler = try await EmbeddedPgBouncer.temporary(
                prefix: "storesync-test-pgbouncer-\(name)", server: cluster, options: pooling, logger: TestCluster.logger)
            var pooled = pooler.configuration
            pooled.database = direct.database
            do {
                try await body(pooler, pooled, direct, cluster)
            } catch {
                await pooler.stop()
                throw error
            }
            await pooler.stop()
        }
    }

    private func refundWhileAway(a: TestServer, b: TestServer, pooler: EmbeddedPgBouncer) async throws {
        let account = try await b.signUp()
        let purchase = TestPurchase.buy(TestCatalog.lifetime, on: b, purchased: b.clock.now().addingTimeInterval(-86_400))
        _ = try await b.upload(purchase.jws, token: account.token)
        let lookUp = { try await a.send("GET", "/v1/entitlements", token: account.token) }
        let cached = try await lookUp()
        try #require(cached.status == 200 && !(try cached.decode(Snapshot.self).entitlements.isEmpty), "A grants the purchase first")

        await pooler.stop(mode: .immediate)
        // Until a poll fails, A may answer from its cache: what it knew is still all there is.
        let away = try await eventually(within: .seconds(60)) { try await lookUp().status == 503 }
        try #require(away, "A notices the pooler is gone")
        let refund = try await b.postNotification(.refund, uuid: UUID(), transaction: purchase.refunded(at: b.clock.now(), on: b).record)
        try #require(refund.status == 200)

        try await pooler.start()
        var answers: [Int] = []
        while answers.filter({ $0 == 200 }).count < 3 {
            let answer = try await lookUp()
            answers.append(answer.status)
            #expect([200, 503].contains(answer.status), "a lookup answered \(answer.status)")
            if answer.status == 200 {
                #expect(try answer.decode(Snapshot.self).entitlements.isEmpty, "A granted the refunded purchase after \(answers)")
            }
            try #require(answers.count < 500, "A does not answer once the pooler is back: \(answers.suffix(5))")
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The servers' poll interval.
    static let pollMilliseconds = 100

    /// Transaction pooling, no direct connection for `LISTEN`: changes are polled for.
    @Sendable static func throughThePooler(_ settings: inout ServerConfiguration) {
        settings.database.poolMode = .transaction
        settings.databaseChangePollMilliseconds = pollMilliseconds
    }
}
