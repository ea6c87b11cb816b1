import Foundation
import StoreSyncAPI
import StoreSyncServer
import StoreSyncTesting
import Testing

/// `PUT /v1/accounts/current/password`: the current password checked again, the new one held to
/// the rules of sign-up, every other session ended.
@Suite struct PasswordChangeTests {
    static let newPassword = "a brand new passphrase"

    private func change(_ server: TestApp, token: String, from old: String, to new: String) async throws -> TestResponse {
        try await server.send(
            "PUT", "/v1/accounts/current/password", token: token, json: PasswordChangeRequest(password: old, newPassword: new))
    }

    private func signIn(_ server: TestApp, _ email: String, _ password: String) async throws -> TestResponse {
        try await server.send("POST", "/v1/sessions", json: Credentials(email: email, password: password))
    }

    @Test func changingThePasswordEndsEveryOtherSessionAtOnce() async throws {
        try await withServer { server in
            let email = "changer-\(UUID().uuidString.prefix(6))@example.com"
            let phone = try await server.signUp(email: email)
            let tablet = try await signIn(server, email, TestServer.password).decode(SessionResponse.self)
            #expect(try await server.send("GET", "/v1/entitlements", token: tablet.token).status == 200)

            #expect(try await change(server, token: phone.token, from: TestServer.password, to: Self.newPassword).status == 204)

            #expect(try await server.send("GET", "/v1/entitlements", token: tablet.token).status == 401)
            #expect(try await server.send("GET", "/v1/entitlements", token: phone.token).status == 200)
            #expect(try await signIn(server, email, TestServer.password).status == 401)
            #expect(try await signIn(server, email, Self.newPassword).status == 200)
        }
    }

    @Test func aWrongCurrentPasswordChangesNothing() async throws {
        try await withServer { server in
            let email = "keeper-\(UUID().uuidString.prefix(6))@example.com"
            let phone = try await server.signUp(email: email)
            let tablet = try await signIn(server, email, TestServer.password).decode(SessionResponse.self)

            let response = try await change(server, token: phone.token, from: "not my password at all", to: Self.newPassword)

            #expect(response.status == 401)
            #expect(response.problem?.type == ProblemType.invalidCredentials.uri)
            #expect(response.problem?.field == "password")
            #expect(try await server.send("GET", "/v1/entitlements", token: tablet.token).status == 200)
            #expect(try await signIn(server, email, TestServer.password).status == 200)
            #expect(try await signIn(server, email, Self.newPassword).status == 401)
        }
    }

    @Test(arguments: ["short", "aaaaaaaaaaaa", String(repeating: "x", count: 80), "new\u{0}password here"])
    func aWeakNewPasswordIsRefusedNamingIt(newPassword: String) async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let response = try await change(server, token: account.token, from: TestServer.password, to: newPassword)
            #expect(response.status == 422)
            #expect(response.problem?.type == ProblemType.weakPassword.uri)
            #expect(response.problem?.field == "newPassword")
        }
    }

    @Test func anAccountWithoutAPasswordHasNoneToChange() async throws {
        try await withServer { server in
            let session = try await server.mintSession(forExternalUser: "backend-user-7", adminKey: server.adminKey)
            let response = try await change(server, token: session.token, from: TestServer.password, to: Self.newPassword)
            #expect(response.status == 400)
            #expect(response.problem?.field == "password")
        }
    }

    @Test func aMalformedBodyIsRefusedNamingTheField() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let missing = try await server.send(
                "PUT", "/v1/accounts/current/password", token: account.token, body: Data(#"{"password": "x"}"#.utf8))
            #expect(missing.status == 400)
            #expect(missing.problem?.field == "newPassword")
            let unauthenticated = try await server.send(
                "PUT", "/v1/accounts/current/password",
                json: PasswordChangeRequest(password: TestServer.password, newPassword: Self.newPassword))
            #expect(unauthenticated.status == 401)
        }
    }
}
