import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Finding 10 of the adversarial review: no request waits on PostgreSQL forever, and readiness
/// reports the database, not how busy the request pool is.
@Suite("Adversarial: database timeouts and readiness") struct EdgeDatabaseTimeoutTests {
    private static let newAccount = Credentials(email: "blocked@example.com", password: TestServer.password)

    /// Holds an exclusive lock on `accounts` in a transaction of the test's own while `body` runs.
    private static func holdingAccountsLocked<R: Sendable>(
        on app: some TestStoreSync, _ body: () async throws -> R
    ) async throws -> R {
        try await app.database.withTransaction { connection in
            try await connection.execute("LOCK TABLE accounts IN ACCESS EXCLUSIVE MODE")
            return try await body()
        }
    }

    /// A statement waiting for a lock is cancelled by whichever timeout is set — the lock
    /// timeout, or the statement timeout with the lock timeout off — and answered 503.
    ///
    /// A live server: were the statement never cancelled, the client's own deadline would end
    /// the request and the test, never a request waiting for the test's lock.
    @Test(arguments: [(lock: 1, statement: 0), (lock: 0, statement: 1)])
    func aStatementStuckOnALockIsCancelledAndAnswered503(timeouts: (lock: Int, statement: Int)) async throws {
        try await withLiveServer(configure: {
            $0.databaseLockTimeoutSeconds = timeouts.lock
            $0.databaseStatementTimeoutSeconds = timeouts.statement
        }) { server in
            let blocked = try await Self.holdingAccountsLocked(on: server) {
                try await server.send("POST", "/v1/accounts", json: Self.newAccount, timeout: .seconds(30))
            }
            #expect(blocked.status == 503)
            #expect(blocked.header("Retry-After") != nil)
            #expect(try await server.count("accounts") == 0)
        }
    }

    /// The request pool's one connection waits on a lock; `/health/ready` still answers 200 from
    /// a connection of its own, and the blocked request completes once the lock goes.
    @Test func readinessAnswersWhileTheRequestPoolIsSaturated() async throws {
        try await withTestApp(configure: {
            $0.databasePoolSize = 1
            $0.databaseLockTimeoutSeconds = 120
        }) { app in
            let (ready, signedUp) = try await app.database.withTransaction { connection in
                try await connection.execute("LOCK TABLE accounts IN ACCESS EXCLUSIVE MODE")
                let signUp = Task { try await app.send("POST", "/v1/accounts", json: Self.newAccount, timeout: .seconds(120)) }
                try await Self.waitUntilAStatementWaitsForALock(app)
                let ready = try await app.send("GET", "/health/ready", timeout: .seconds(60))
                return (ready, signUp)
            }
            #expect(ready.status == 200)
            #expect(try await signedUp.value.status == 201)
        }
    }

    /// Waits until another session of the application's database waits for a lock.
    private static func waitUntilAStatementWaitsForALock(_ app: TestApp) async throws {
        for _ in 0..<600 {
            let waiting = try await app.database.withConnection { connection in
                try await connection.query(
                    """
                    SELECT count(*)::bigint FROM pg_stat_activity
                    WHERE datname = current_database() AND wait_event_type = 'Lock'
                    """
                ).first!.decode(Int.self)
            }
            if waiting > 0 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("no statement of the application ever waited for the lock")
    }
}
