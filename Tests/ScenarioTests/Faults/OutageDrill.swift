import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting
import Testing

/// One outage of the database under load (issue 7, Reliability), whatever takes it away
/// (PostgreSQL stopped, the pooler in front of it stopped): while it is away every request
/// answers 503 problem+json (no 500, no hang; the slowest 503 is reported) and readiness says
/// not ready; once it is back the pool recovers by itself; nothing answered 2xx is lost.
struct OutageDrill {
    let server: TestServer
    /// Names the drill in what it prints.
    let name: String

    static let devices = 6
    /// A liveness bound for waiting on the load or the recovery, not a performance assertion.
    static let patience: Duration = .seconds(60)

    /// Runs the load, takes the database away with `interrupt`, checks the answers while it is
    /// away, brings it back with `restore`, and checks that the load succeeds again and that
    /// every account and purchase answered 2xx is stored.
    func run(interrupt: () async throws -> Void, restore: () async throws -> Void) async throws {
        let ledger = OutageLedger()
        let load = OutageLoad(server: server, ledger: ledger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for device in 0..<Self.devices {
                group.addTask { await load.runDevice(device) }
            }
            try await waitFor("accepted purchases before the outage") { await ledger.accepted.values.joined().count >= 10 }

            await ledger.enter(.stopping)
            try await interrupt()
            await ledger.enter(.down)
            try await waitFor("503s during the outage") { await ledger.downAnswers >= 3 * Self.devices }
            let ready = try await server.send("GET", "/health/ready", timeout: OutageLoad.requestTimeout)
            #expect(ready.status == 503 && ready.header("Content-Type") == "application/problem+json")
            let live = try await server.send("GET", "/health/live", timeout: OutageLoad.requestTimeout)
            #expect(live.status == 200, "the process itself stays live")

            await ledger.enter(.after)
            let restarted = ContinuousClock.now
            try await restore()
            try await waitFor("a sign-up after the database came back") {
                (try? await server.signUp()) != nil
            }
            let recovery = ContinuousClock.now - restarted
            let successesBefore = await ledger.successes[.after, default: 0]
            try await waitFor("the load to succeed again") {
                await ledger.successes[.after, default: 0] >= successesBefore + 3 * Self.devices
            }
            await ledger.finish()
            try await group.waitForAll()
            print("\(name): recovered \(recovery) after the restart began")
        }

        let violations = await ledger.violations
        #expect(violations.isEmpty, "\(violations.prefix(10).joined(separator: "\n"))")
        print(
            "\(name): \(await ledger.accounts.count) accounts, "
                + "\(await ledger.accepted.values.joined().count) accepted purchases, "
                + "successes by phase \(await ledger.successes), \(await ledger.downAnswers) 503s while down, "
                + "slowest \(await ledger.slowestDownAnswer) s")
        try await expectNothingLost(ledger: ledger)
    }

    /// Every account and purchase answered 2xx is in the tables and in the account's snapshot.
    private func expectNothingLost(ledger: OutageLedger) async throws {
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

    /// Waits until `condition` holds, failing the test (and ending the drill) after ``patience``.
    private func waitFor(_ what: String, _ condition: () async -> Bool) async throws {
        try #require(try await eventually(within: Self.patience, condition), "gave up waiting for \(what) after \(Self.patience)")
    }
}
