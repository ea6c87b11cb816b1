import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite struct AccountRouteTests {
    @Test func signUpAnswersCreatedWithASessionAndAStableAppAccountToken() async throws {
        try await withServer { server in
            let response = try await server.send(
                "POST", "/v1/accounts",
                json: Credentials(email: "Ada@Example.COM ", password: TestServer.password, deviceName: "iPhone"))
            #expect(response.status == 201)
            let created = try response.decode(SessionResponse.self)
            #expect(created.token.count == 43)

            let signIn = try await server.send(
                "POST", "/v1/sessions", json: Credentials(email: "ada@example.com", password: TestServer.password))
            #expect(signIn.status == 200)
            let session = try signIn.decode(SessionResponse.self)
            #expect(session.accountId == created.accountId)
            #expect(session.appAccountToken == created.appAccountToken)
            #expect(session.deviceId != created.deviceId)
            #expect(session.token != created.token)
        }
    }

    @Test func tokensAreStoredOnlyAsTheirHash() async throws {
        try await withServer { server in
            let session = try await server.signUp()
            let stored = try await server.database.withConnection { connection in
                try await connection.query("SELECT token_hash FROM sessions").map { try $0.decode(Data.self) }
            }
            #expect(stored.count == 1)
            #expect(stored[0].count == 32)
            #expect(!stored[0].elementsEqual(Data(session.token.utf8)))
        }
    }

    @Test func anEmailIsTakenWhateverItsCase() async throws {
        try await withServer { server in
            _ = try await server.signUp(email: "grace@example.com")
            let again = try await server.send(
                "POST", "/v1/accounts", json: Credentials(email: "GRACE@example.com", password: TestServer.password))
            #expect(again.status == 409)
            #expect(again.problem?.type == ProblemType.emailTaken.uri)
            #expect(try await server.count("accounts") == 1)
        }
    }

    @Test(arguments: ["short", "aaaaaaaaaaaaaaaa", String(repeating: "long-pass", count: 9), "correct horse\u{0} battery"])
    func weakPasswordsAreRefusedWithAReason(password: String) async throws {
        try await withServer { server in
            let response = try await server.send(
                "POST", "/v1/accounts", json: Credentials(email: "weak@example.com", password: password))
            #expect(response.status == 422)
            #expect(response.problem?.type == ProblemType.weakPassword.uri)
            #expect(response.problem?.field == "password")
            #expect(response.problem?.detail?.isEmpty == false)
            #expect(try await server.count("accounts") == 0)
        }
    }

    @Test(arguments: ["", "no-at-sign", "a@b", "two@@example.com", "spa ce@example.com", "nu\u{0}l@example.com", "bell\u{7}@example.com"])
    func invalidEmailsAreRefused(email: String) async throws {
        try await withServer { server in
            let response = try await server.send(
                "POST", "/v1/accounts", json: Credentials(email: email, password: TestServer.password))
            #expect(response.status == 400)
            #expect(response.problem?.field == "email")
        }
    }

    @Test(arguments: ["iPhone\u{0}", "line\nbreak", "escape\u{1B}[31m", "c1\u{85}name"])
    func deviceNamesWithControlCharactersAreRefusedAndCreateNothing(deviceName: String) async throws {
        try await withServer { server in
            let response = try await server.send(
                "POST", "/v1/accounts",
                json: Credentials(email: "device@example.com", password: TestServer.password, deviceName: deviceName))
            #expect(response.status == 400)
            #expect(response.problem?.field == "deviceName")
            #expect(try await server.count("accounts") == 0)
        }
    }

    /// bcrypt stops reading at a NUL byte: without a rule, the password plus a NUL and anything
    /// would sign in as the password.
    @Test func aPasswordWithANULNeverSignsIn() async throws {
        try await withServer { server in
            _ = try await server.signUp(email: "nul@example.com")
            let response = try await server.send(
                "POST", "/v1/sessions",
                json: Credentials(email: "nul@example.com", password: TestServer.password + "\u{0}anything"))
            #expect(response.status == 401)
            let right = try await server.send(
                "POST", "/v1/sessions", json: Credentials(email: "nul@example.com", password: TestServer.password))
            #expect(right.status == 200)
        }
    }

    @Test func anUnknownEmailAndAWrongPasswordGetTheSameAnswer() async throws {
        try await withServer { server in
            _ = try await server.signUp(email: "known@example.com")
            let wrong = try await server.send(
                "POST", "/v1/sessions", json: Credentials(email: "known@example.com", password: "not the password!"))
            let unknown = try await server.send(
                "POST", "/v1/sessions", json: Credentials(email: "nobody@example.com", password: "not the password!"))
            #expect(wrong.status == 401)
            #expect(unknown.status == 401)
            #expect(wrong.body == unknown.body)
        }
    }

    @Test func signInAttemptsAreThrottledPerEmailWithRetryAfter() async throws {
        try await withServer(configure: { $0.loginLimits.failuresPerEmail = 3 }) { server in
            _ = try await server.signUp(email: "target@example.com")
            for _ in 0..<3 {
                let attempt = try await server.send(
                    "POST", "/v1/sessions", json: Credentials(email: "target@example.com", password: "guess-guess-1"))
                #expect(attempt.status == 401)
            }
            let blocked = try await server.send(
                "POST", "/v1/sessions", json: Credentials(email: "target@example.com", password: TestServer.password))
            #expect(blocked.status == 429)
            #expect(blocked.problem?.type == ProblemType.rateLimited.uri)
            #expect(Int(blocked.header("Retry-After") ?? "") ?? 0 > 0)

            server.clock.advance(by: 16 * 60)
            let later = try await server.send(
                "POST", "/v1/sessions", json: Credentials(email: "target@example.com", password: TestServer.password))
            #expect(later.status == 200)
        }
    }

    /// The client address is the connection's: a live server's.
    @Test func signInAttemptsAreThrottledPerClientAddress() async throws {
        try await withLiveServer(configure: { $0.loginLimits.attemptsPerAddress = 2 }) { server in
            for index in 0..<2 {
                _ = try await server.send(
                    "POST", "/v1/sessions", json: Credentials(email: "u\(index)@example.com", password: "guess-guess-1"))
            }
            let blocked = try await server.send(
                "POST", "/v1/sessions", json: Credentials(email: "other@example.com", password: "guess-guess-1"))
            #expect(blocked.status == 429)
        }
    }

    @Test func aDeviceSigningInAgainKeepsItsIdAndItsOldTokenStopsWorking() async throws {
        try await withServer { server in
            let first = try await server.signUp(email: "device@example.com")
            let again = try await server.send(
                "POST", "/v1/sessions",
                json: Credentials(email: "device@example.com", password: TestServer.password, deviceId: first.deviceId))
            let second = try again.decode(SessionResponse.self)
            #expect(second.deviceId == first.deviceId)
            #expect(try await server.send("GET", "/v1/entitlements", token: first.token).status == 401)
            #expect(try await server.send("GET", "/v1/entitlements", token: second.token).status == 200)
            #expect(try await server.count("sessions") == 1)
        }
    }

    /// Behind a transaction pooler without a listening connection, other instances' changes
    /// arrive by a poll; a sign-in replacing a device's token must still end the old one here
    /// at once, as a sign-out does, not at the next poll.
    @Test func aDeviceSigningInAgainEndsItsCachedOldTokenAtOnceWhenTheFeedPolls() async throws {
        try await withServer(configure: {
            $0.database.poolMode = .transaction
            $0.databaseChangePollMilliseconds = 3_000
        }) { server in
            let email = "polled-device@example.com"
            let first = try await server.signUp(email: email)
            try #require(try await sessionsAreCached(server, email: email), "the polled feed never served a cached session")
            #expect(try await server.send("GET", "/v1/entitlements", token: first.token).status == 200, "now cached")
            let again = try await server.send(
                "POST", "/v1/sessions", json: Credentials(email: email, password: TestServer.password, deviceId: first.deviceId))
            #expect(again.status == 200)
            #expect(try await server.send("GET", "/v1/entitlements", token: first.token).status == 401)
        }
    }

    /// Whether the server answers sessions from its cache: a probe device's token still works
    /// after its row is removed behind the server's back (no notice reaches a polling feed).
    private func sessionsAreCached(_ server: TestApp, email: String) async throws -> Bool {
        try await eventually(within: .seconds(30)) {
            try await Task.sleep(for: .milliseconds(250))  // a few sign-ins per poll, well inside the throttle
            let probe = try await server.send(
                "POST", "/v1/sessions", json: Credentials(email: email, password: TestServer.password))
                .decode(SessionResponse.self)
            guard try await server.send("GET", "/v1/entitlements", token: probe.token).status == 200 else { return false }
            try await server.database.withConnection { connection in
                try await connection.execute("DELETE FROM sessions WHERE device_id = \(probe.deviceId)")
            }
            return try await server.send("GET", "/v1/entitlements", token: probe.token).status == 200
        }
    }

    @Test func signOutEndsOnlyThisDevicesSession() async throws {
        try await withServer { server in
            let phone = try await server.signUp(email: "two@example.com")
            let tablet = try await server.send(
                "POST", "/v1/sessions", json: Credentials(email: "two@example.com", password: TestServer.password))
                .decode(SessionResponse.self)
            #expect(try await server.send("DELETE", "/v1/sessions/current", token: phone.token).status == 204)
            #expect(try await server.send("GET", "/v1/entitlements", token: phone.token).status == 401)
            #expect(try await server.send("DELETE", "/v1/sessions/current", token: phone.token).status == 401)
            #expect(try await server.send("GET", "/v1/entitlements", token: tablet.token).status == 200)
        }
    }

    @Test(arguments: [nil, "Bearer", "Bearer not-a-token", "Basic abc", "Bearer \(String(repeating: "A", count: 43))"])
    func deviceRoutesRefuseMissingOrUnknownTokens(header: String?) async throws {
        try await withServer { server in
            let response = try await server.send(
                "GET", "/v1/entitlements", headers: header.map { ["Authorization": $0] } ?? [:])
            #expect(response.status == 401)
            #expect(response.header("Content-Type") == "application/problem+json")
            #expect(response.problem?.type == ProblemType.unauthorized.uri)
        }
    }
}
