import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncServer
import StoreSyncTesting
import Testing

/// A password change racing a sign-in with the old password: whoever knew the old password
/// keeps no session, whichever of the two reaches PostgreSQL first. The account's row is held
/// by a transaction of the test until both wait for it (seen in `pg_locks`, not by timing).
@Suite struct PasswordChangeRaceTests {
    static let newPassword = "a brand new passphrase"

    @Test func aSignInStillCheckingTheOldPasswordWhenTheChangeCommitsKeepsNoSession() async throws {
        try await withServer { server in
            let email = "raced-\(UUID().uuidString.prefix(6))@example.com"
            let phone = try await server.signUp(email: email)
            let (intruder, changed) = try await raceWhileTheAccountIsHeld(server, account: phone.accountId) {
                try await server.send("POST", "/v1/sessions", json: Credentials(email: email, password: TestServer.password))
            } then: {
                try await change(server, token: phone.token)
            }
            #expect(changed.status == 204)
            try await expectNoSessionLeft(by: intruder, on: server)
            #expect(try await server.send("GET", "/v1/entitlements", token: phone.token).status == 200)
        }
    }

    /// The old password signing in as the changing device itself replaces that device's token;
    /// the change must not spare the replaced token by its device id.
    @Test func aSignInWithTheOldPasswordAsTheChangingDeviceKeepsNoSession() async throws {
        try await withServer { server in
            let email = "rekeyed-\(UUID().uuidString.prefix(6))@example.com"
            let phone = try await server.signUp(email: email)
            let (changed, intruder) = try await raceWhileTheAccountIsHeld(server, account: phone.accountId) {
                try await change(server, token: phone.token)
            } then: {
                try await server.send(
                    "POST", "/v1/sessions",
                    json: Credentials(email: email, password: TestServer.password, deviceId: phone.deviceId))
            }
            #expect(changed.status == 204)
            try await expectNoSessionLeft(by: intruder, on: server)
            let signedIn = try await server.send(
                "POST", "/v1/sessions", json: Credentials(email: email, password: Self.newPassword))
            #expect(signedIn.status == 200, "the new password opens the account")
        }
    }

    private func change(_ server: TestApp, token: String) async throws -> TestResponse {
        try await server.send(
            "PUT", "/v1/accounts/current/password", token: token,
            json: PasswordChangeRequest(password: TestServer.password, newPassword: Self.newPassword))
    }

    /// A request started in a task, and a flag set when it has finished.
    private func started(_ request: @escaping @Sendable () async throws -> TestResponse)
        -> (Task<TestResponse, any Error>, DoneFlag)
    {
        let task = Task { try await request() }
        let done = DoneFlag()
        Task {
            defer { done.set() }
            _ = try? await task.value
        }
        return (task, done)
    }

    /// A sign-in with the old password either was refused or got a token that no longer works.
    private func expectNoSessionLeft(by intruder: TestResponse, on server: TestApp) async throws {
        if intruder.status == 200 {
            let session = try intruder.decode(SessionResponse.self)
            #expect(try await server.send("GET", "/v1/entitlements", token: session.token).status == 401)
        } else {
            #expect(intruder.status == 401)
        }
    }

    /// Holds the account's row while `first` and then `second` start, until both wait for a
    /// lock (or the second has finished), then lets them run in whichever order PostgreSQL grants.
    ///
    /// - Returns: Their responses, in the order they started.
    private func raceWhileTheAccountIsHeld(
        _ server: TestApp, account: UUID,
        _ first: @escaping @Sendable () async throws -> TestResponse,
        then second: @escaping @Sendable () async throws -> TestResponse
    ) async throws -> (TestResponse, TestResponse) {
        let (one, two) = try await server.database.withTransaction { blocker in
            try await blocker.execute("SELECT 1 FROM accounts WHERE account_id = \(account) FOR UPDATE")
            let (one, oneIsDone) = started(first)
            try #require(try await eventually { try await server.backendsWaitingForALock() + oneIsDone.count >= 1 })
            let (two, twoIsDone) = started(second)
            // Either may also not wait at all (a server that takes no lock in its way).
            try #require(
                try await eventually {
                    try await server.backendsWaitingForALock() + oneIsDone.count + twoIsDone.count >= 2
                })
            return (one, two)
        }
        return (try await one.value, try await two.value)
    }
}
