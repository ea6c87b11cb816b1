import Foundation
import Logging
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting
import Testing

/// `storesync serve` killed with SIGKILL while restores are in flight (issue 7, Reliability):
/// after a restart each account is in its before state (nothing of the restore) or its after
/// state (all of it, with the version bump and the events), never half — and an account whose
/// restore was answered 200 is always in its after state.
@Suite struct KillDuringRestoreTests {
    static let rounds = 3
    static let accountsPerRound = 12
    static let batch = 20

    /// One account of a round and what became of its restore before the kill.
    struct Restore: Sendable {
        let session: SessionResponse
        let purchases: [TransactionRecord]
        var versionBefore: Int64 = 0
        var answered = false
    }

    @Test func everyAccountIsInItsBeforeOrAfterStateAfterASigkillMidRestore() async throws {
        let fixture = try await KillFixture.make()
        let pool = ConnectionPool(configuration: fixture.database, size: 2, logger: Logger(label: "storesync.kill-test"))
        var server = try await fixture.startServer(log: "serve-0.log")
        // Whatever fails, no server outlives the test (a no-op once it stopped).
        defer { server.kill() }
        var cutOff = 0
        for round in 1...Self.rounds {
            var restores = try await signUpAccounts(on: server, signer: fixture.signer)
            for index in restores.indices {
                restores[index].versionBefore = try await version(of: restores[index].session.accountId, in: pool)
            }
            restores = try await restoreAllThenKill(restores, server: server, pool: pool)
            server = try await fixture.startServer(log: "serve-\(round).log")

            var after = 0
            for restore in restores {
                after += try await expectBeforeOrAfter(restore, in: pool, server: server) ? 1 : 0
            }
            let answered = restores.filter(\.answered).count
            cutOff += restores.count - answered
            print("KillDuringRestoreTests round \(round): \(answered) answered, \(after) after, \(restores.count - after) before")
        }
        #expect(cutOff >= Self.rounds * (Self.accountsPerRound / 3), "the held restores were in flight at every kill")
        await pool.shutdown()
        await server.stop()
        await fixture.remove()
    }

    private func signUpAccounts(on server: ServerProcess, signer: AppStoreTestSigner) async throws -> [Restore] {
        var restores: [Restore] = []
        for index in 0..<Self.accountsPerRound {
            let credentials = Credentials(email: "kill-\(index)-\(UUID().uuidString.prefix(8))@example.com", password: "correct horse battery staple")
            let response = try await server.send("POST", "/v1/accounts", body: try StoreSyncJSON.makeEncoder().encode(credentials))
            try #require(response.status == 201)
            let session = try StoreSyncJSON.makeDecoder().decode(SessionResponse.self, from: response.body)
            let now = Date()
            let purchases = (0..<Self.batch).map { _ in signer.signedPurchase(of: TestCatalog.lifetime, at: now) }
            restores.append(Restore(session: session, purchases: purchases))
        }
        return restores
    }

    /// Fires every restore at once and kills the server as soon as the first one is answered,
    /// so the others are cut off at whatever stage they reached. Every third account's row is
    /// held locked meanwhile, so those restores are certainly in flight when the kill lands
    /// (however fast the others ran); once it has, the rows are let go and the test waits until
    /// the killed server's sessions have ended, whatever their last statements did.
    private func restoreAllThenKill(_ restores: [Restore], server: ServerProcess, pool: ConnectionPool) async throws -> [Restore] {
        let held = stride(from: 2, to: restores.count, by: 3).map { restores[$0].session.accountId }
        let outcomes = try await pool.withTransaction { blocker in
            try await blocker.execute("SELECT 1 FROM account_versions WHERE account_id = ANY(\(held)) FOR NO KEY UPDATE")
            return try await restoreAllThenKillUnheld(restores, server: server)
        }
        try await waitForTheKilledSessionsToEnd(in: pool)
        return outcomes
    }

    private func restoreAllThenKillUnheld(_ restores: [Restore], server: ServerProcess) async throws -> [Restore] {
        var outcomes = restores
        try await withThrowingTaskGroup(of: (Int, Int?).self) { group in
            for (index, restore) in restores.enumerated() {
                let body = try StoreSyncJSON.makeEncoder().encode(RestoreRequest(entries: restore.purchases, userInitiated: true))
                group.addTask {
                    let status = try? await server.send("POST", "/v1/restore", token: restore.session.token, body: body).status
                    return (index, status)
                }
            }
            var killed = false
            for try await (index, status) in group {
                // A 200 that got out before the kill is a promise the restart must keep.
                outcomes[index].answered = status == 200
                if let status, !killed { #expect(status == 200, "a restore before the kill answered \(status)") }
                if !killed {
                    server.kill()
                    killed = true
                }
            }
        }
        return outcomes
    }

    /// Waits until no session but this pool's own is running or inside a transaction: the
    /// killed server's sessions end once PostgreSQL notices the client is gone, and checking
    /// before then could read an account between two of a dying transaction's statements.
    private func waitForTheKilledSessionsToEnd(in pool: ConnectionPool) async throws {
        while try await busySessions(in: pool) > 0 {
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Sessions of this database, other than the asking one, running a statement or inside a transaction.
    private func busySessions(in pool: ConnectionPool) async throws -> Int64 {
        try await pool.withConnection { connection in
            try await connection.query(
                """
                SELECT count(*)::bigint FROM pg_stat_activity
                WHERE backend_type = 'client backend' AND datname = current_database()
                  AND pid <> pg_backend_pid() AND state <> 'idle'
                """
            ).first!.decode(Int64.self)
        }
    }

    /// Checks one account against its two allowed states; returns whether it is in the after state.
    private func expectBeforeOrAfter(_ restore: Restore, in pool: ConnectionPool, server: ServerProcess) async throws -> Bool {
        let account = restore.session.accountId
        let (transactions, owned, events) = try await pool.withConnection { connection in
            let row = try await connection.query(
                """
                SELECT (SELECT count(*) FROM transactions WHERE account_id = \(account))::bigint,
                       (SELECT count(*) FROM purchase_owners WHERE account_id = \(account))::bigint,
                       (SELECT count(*) FROM events WHERE account_id = \(account) AND kind = 'purchaseClaimed')::bigint
                """
            ).first!
            return try row.decode((Int, Int, Int).self)
        }
        let isAfter = transactions == Self.batch
        #expect(transactions == 0 || isAfter, "account \(account) holds \(transactions) of \(Self.batch) transactions")
        #expect(owned == transactions && events == transactions, "owners \(owned), claim events \(events), transactions \(transactions)")
        let version = try await version(of: account, in: pool)
        #expect(version == restore.versionBefore + (isAfter ? 1 : 0), "version \(version) for \(transactions) transactions")
        if restore.answered { #expect(isAfter, "a restore answered 200 was lost") }

        let response = try await server.send("GET", "/v1/entitlements", token: restore.session.token)
        try #require(response.status == 200)
        let snapshot = try StoreSyncJSON.makeDecoder().decode(Snapshot.self, from: response.body)
        #expect(snapshot.version == version)
        #expect(snapshot.transactions.count == transactions)
        #expect(snapshot.entitlements.map(\.entitlementId) == (isAfter ? ["premium"] : []))
        return isAfter
    }

    private func version(of account: UUID, in pool: ConnectionPool) async throws -> Int64 {
        try await pool.withConnection { connection in
            try await connection.query("SELECT version FROM account_versions WHERE account_id = \(account)").first!.decode(Int64.self)
        }
    }
}
