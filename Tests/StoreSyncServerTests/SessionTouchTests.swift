import Foundation
import PostgresLibPQ
import StoreSyncAPI
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

/// Resolving a token marks the session seen at most once a minute, with an asynchronous
/// commit that stays inside that one statement.
@Suite struct SessionTouchTests {
    @Test func aTokenMarksItsSessionSeenOnceAMinuteWithoutRelaxingTheConnection() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let hash = try #require(BearerToken.hash(of: account.token))
            let sessions = SessionRepository()
            try await server.database.withConnection { connection in
                try await connection.execute(
                    "UPDATE sessions SET last_seen_at = now() - interval '2 minutes' WHERE account_id = \(account.accountId)")
                try await connection.execute("SET synchronous_commit = on")

                let device = try await sessions.device(
                    tokenHash: hash, now: Date(), idleSince: Date().addingTimeInterval(-3600), on: connection)
                #expect(device?.accountId == account.accountId)
                let setting = try await connection.query("SHOW synchronous_commit").first?.decode(String.self)
                #expect(setting == "on", "the relaxed commit must not outlive its statement")
                let ageAfterTouch = try await lastSeenAge(of: account.accountId, on: connection)
                #expect(ageAfterTouch < 30, "marked seen just now")

                try await connection.execute(
                    "UPDATE sessions SET last_seen_at = now() - interval '30 seconds' WHERE account_id = \(account.accountId)")
                _ = try await sessions.device(
                    tokenHash: hash, now: Date(), idleSince: Date().addingTimeInterval(-3600), on: connection)
                #expect(try await lastSeenAge(of: account.accountId, on: connection) >= 30, "not marked twice in a minute")
                try await connection.execute("RESET synchronous_commit")
            }
        }
    }

    /// Seconds since the account's session was last marked seen.
    private func lastSeenAge(of accountId: UUID, on connection: PostgresConnection) async throws -> Double {
        let row = try await connection.query(
            "SELECT extract(epoch FROM now() - last_seen_at)::float8 FROM sessions WHERE account_id = \(accountId)")
        return try #require(try row.first?.decode(Double.self))
    }
}
