import Foundation
import StoreSyncAPI
import StoreSyncServer
import StoreSyncTesting
import Testing

/// `GET /v1/sessions` and `DELETE /v1/sessions/{deviceId}`: an account sees and ends its own
/// devices' sessions, never another account's, and never a token; unused sessions end.
@Suite struct SessionListTests {
    private func signIn(_ server: some TestEndpoint, _ email: String, device: String) async throws -> SessionResponse {
        try await server.send(
            "POST", "/v1/sessions", json: Credentials(email: email, password: TestServer.password, deviceName: device)
        ).decode(SessionResponse.self)
    }

    @Test func theListShowsEveryDeviceMarksTheCurrentOneAndNoToken() async throws {
        try await withServer { server in
            let email = "lister-\(UUID().uuidString.prefix(6))@example.com"
            let phone = try await server.signUp(email: email, deviceName: "iPhone")
            server.clock.advance(by: 60)
            let tablet = try await signIn(server, email, device: "iPad")

            let response = try await server.send("GET", "/v1/sessions", token: tablet.token)

            #expect(response.status == 200)
            let list = try response.decode(SessionList.self)
            #expect(list.sessions.map(\.deviceId) == [phone.deviceId, tablet.deviceId])
            #expect(list.sessions.map(\.deviceName) == ["iPhone", "iPad"])
            #expect(list.sessions.map(\.current) == [false, true])
            let body = String(decoding: response.body, as: UTF8.self)
            #expect(!body.contains(phone.token) && !body.contains(tablet.token))
            #expect(!body.contains("token"))
        }
    }

    @Test func signingAnotherDeviceOutEndsItsSessionOnly() async throws {
        try await withServer { server in
            let email = "remote-\(UUID().uuidString.prefix(6))@example.com"
            let phone = try await server.signUp(email: email)
            let lost = try await signIn(server, email, device: "lost iPad")
            #expect(try await server.send("GET", "/v1/entitlements", token: lost.token).status == 200)

            #expect(try await server.send("DELETE", "/v1/sessions/\(lost.deviceId)", token: phone.token).status == 204)

            #expect(try await server.send("GET", "/v1/entitlements", token: lost.token).status == 401)
            #expect(try await server.send("GET", "/v1/entitlements", token: phone.token).status == 200)
            #expect(try await server.send("DELETE", "/v1/sessions/\(lost.deviceId)", token: phone.token).status == 404)
        }
    }

    @Test func anotherAccountsDeviceIsNotFoundAndKeepsItsSession() async throws {
        try await withServer { server in
            let mine = try await server.signUp()
            let theirs = try await server.signUp()

            let response = try await server.send("DELETE", "/v1/sessions/\(theirs.deviceId)", token: mine.token)

            #expect(response.status == 404)
            #expect(response.problem?.type == ProblemType.notFound.uri)
            #expect(try await server.send("GET", "/v1/entitlements", token: theirs.token).status == 200)
            let list = try await server.send("GET", "/v1/sessions", token: mine.token).decode(SessionList.self)
            #expect(list.sessions.map(\.deviceId) == [mine.deviceId])
        }
    }

    @Test(arguments: ["not-a-uuid", "00000000", String(repeating: "f", count: 300)])
    func aDeviceIdThatIsNotAUUIDIsABadRequest(deviceId: String) async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let response = try await server.send("DELETE", "/v1/sessions/\(deviceId)", token: account.token)
            #expect(response.status == 400)
            #expect(response.problem?.field == "deviceId")
        }
    }

    @Test func aSessionUnusedForTheIdleLimitEndsAndUseKeepsItAlive() async throws {
        let clock = TestClock()
        try await withServer(clock: clock, configure: { $0.sessionIdleSeconds = 7 * 86_400 }) { server in
            let email = "idle-\(UUID().uuidString.prefix(6))@example.com"
            let used = try await server.signUp(email: email)
            let forgotten = try await signIn(server, email, device: "drawer")

            for _ in 0..<3 {
                clock.advance(by: 5 * 86_400)
                #expect(try await server.send("GET", "/v1/entitlements", token: used.token).status == 200)
            }

            #expect(try await server.send("GET", "/v1/entitlements", token: forgotten.token).status == 401)
            let list = try await server.send("GET", "/v1/sessions", token: used.token).decode(SessionList.self)
            #expect(list.sessions.map(\.deviceId) == [used.deviceId])
            #expect(try await server.count("sessions") == 1)
        }
    }

    @Test func signingOutOnAnotherInstanceEndsTheSessionThere() async throws {
        try await withServer { first in
            try await withSecondInstance(of: first) { second in
                let email = "twice-\(UUID().uuidString.prefix(6))@example.com"
                let phone = try await first.signUp(email: email)
                let tablet = try await signIn(first, email, device: "iPad")
                #expect(try await second.send("GET", "/v1/entitlements", token: tablet.token).status == 200)
                #expect(try await first.send("DELETE", "/v1/sessions/\(tablet.deviceId)", token: phone.token).status == 204)
                var refused = false
                for _ in 0..<100 where !refused {
                    refused = try await second.send("GET", "/v1/entitlements", token: tablet.token).status == 401
                    if !refused { try await Task.sleep(for: .milliseconds(50)) }
                }
                #expect(refused)
            }
        }
    }
}
