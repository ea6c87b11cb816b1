import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting
import Testing

/// PostgreSQL stopped and started again under load (issue 7, Reliability): while it is down
/// every request answers 503 problem+json at once (no 500, no hang) and readiness says not
/// ready; once it is back the pool recovers by itself; nothing answered 2xx is lost.
///
/// The outage hits a cluster of the test's own, never the shared one other suites use.
@Suite(.serialized) struct DatabaseOutageTests {
    static let devices = 6
    /// A liveness bound for waiting on the load or the recovery, not a performance assertion.
    static let patience: Duration = .seconds(30)

    @Test(arguments: EmbeddedPostgres.ShutdownMode.allCases)
    func requestsAnswer503WhilePostgresIsDownAndTheServerRecoversWithNothingLost(mode: EmbeddedPostgres.ShutdownMode) async throws {
        var options = EmbeddedPostgres.Options.forTesting
        // A commit is answered only once its WAL reached the kernel, so even an immediate
        // shutdown (a crash) keeps it; the test clusters' default would not promise that.
        options.settings["synchronous_commit"] = "on"
        let (cluster, database) = try await TestCluster.dedicated(named: "outage-\(mode)", options: options)
        let server = try await TestServer.start(database: database)
        do {
            try await runOutage(server: server, cluster: cluster, mode: mode)
        } catch {
            await server.stop()
            try? await cluster.stop()
            throw error
        }
        await server.stop()
        try await cluster.stop()
        try? FileManager.default.removeItem(at: cluster.directory)
    }

    private func runOutage(server: TestServer, cluster: EmbeddedPostgres, mode: EmbeddedPostgres.ShutdownMode) async throws {
        let ledger = OutageLedger()
        let load = OutageLoad(server: server, ledger: ledger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for device in 0..<Self.devices {
                group.addTask { await load.runDevice(device) }
            }
            try await waitFor("accepted purchases before the outage") { await ledger.accepted.values.joined().count >= 10 }

            await ledger.enter(.stopping)
            try await cluster.stop(mode: mode)
            await ledger.enter(.down)
            try await waitFor("503s during the outage") { await ledger.downAnswers >= 3 * Self.devices }
            let ready = try await server.send("GET", "/health/ready", timeout: OutageLoad.requestTimeout)
            #expect(ready.status == 503 && ready.header("Content-Type") == "application/problem+json")
            let live = try await server.send("GET", "/health/live", timeout: OutageLoad.requestTimeout)
            #expect(live.status == 200, "the process itself stays live")

            await ledger.enter(.after)
            let restarted = ContinuousClock.now
            try await cluster.start()
            try await waitFor("a sign-up after PostgreSQL restarted") {
                (try? await server.signUp()) != nil
            }
            let recovery = ContinuousClock.now - restarted
            let successesBefore = await ledger.successes[.after, default: 0]
            try await waitFor("the load to succeed again") {
                await ledger.successes[.after, default: 0] >= successesBefore + 3 * Self.devices
            }
            await ledger.finish()
            try await group.waitForAll()
            print("DatabaseOutageTests (\(mode)): recovered \(recovery) after pg_ctl start (start included)")
        }

        let violations = await ledger.violations
        #expect(violations.isEmpty, "\(violations.prefix(10).joined(separator: "\n"))")
        print(
            "DatabaseOutageTests (\(mode)): \(await ledger.accounts.count) accounts, "
                + "\(await ledger.accepted.values.joined().count) accepted purchases, "
                + "successes by phase \(await ledger.successes), \(await ledger.downAnswers) 503s while down, "
                + "slowest \(await ledger.slowestDownAnswer) s")
        try await expectNothingLost(ledger: ledger, server: server)
    }

    /// Every account and purchase answered 2xx is in the tables and in the account's snapshot.
    private func expectNothingLost(ledger: OutageLedger, server: TestServer) async throws {
        let accounts = await ledger.accounts
        let accepted = await ledger.accepted
        let (storedAccounts, storedPurchases) = try await server.database.withConnection { connection in
            let accounts = try await connection.query("SELECT account_id FROM accounts").map { try $0.decode(UUID.self) }
            let purchases = try await connection.query("SELECT account_id, transaction_id FROM transactions").map {
                let (account, transaction) = try $0.decode((UUID, String).self)
                return "\(account)/\(transaction)"
            }
            return (Set(accounts), Set(purchases))
        }
        #expect(Set(accounts.keys).isSubset(of: storedAccounts), "accounts answered 201 are missing")
        let acceptedPairs = Set(accepted.flatMap { account, ids in ids.map { "\(account)/\($0)" } })
        #expect(acceptedPairs.isSubset(of: storedPurchases), "\(acceptedPairs.subtracting(storedPurchases).count) accepted purchases are missing")

        for (account, ids) in accepted {
            let token = try #require(accounts[account])
            let snapshot = try await server.send("GET", "/v1/entitlements", token: token).decode(Snapshot.self)
            #expect(ids.isSubset(of: Set(snapshot.transactions.map(\.transactionId))), "snapshot of \(account)")
        }
    }

    private func waitFor(_ what: String, _ condition: () async -> Bool) async throws {
        let deadline = ContinuousClock.now + Self.patience
        while await !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("gave up waiting for \(what) after \(Self.patience)")
                throw CancellationError()
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
