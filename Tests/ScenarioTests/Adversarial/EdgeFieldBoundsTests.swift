import Foundation
import StoreSyncAPI
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Finding 3 of the adversarial review: nothing an anonymous client sends may grow the server's
/// memory — every field is bounded, routes without credentials take small bodies, and the
/// sign-in throttle's state stays bounded under a flood of distinct emails.
@Suite("Adversarial: field, body and throttle bounds") struct EdgeFieldBoundsTests {
    private static func signIn(email: String, password: String = "wrong password!") throws -> Data {
        try StoreSyncJSON.makeEncoder().encode(Credentials(email: email, password: password))
    }

    /// A JSON object of about `bytes` bytes: the given fields and a padding field the server ignores.
    private static func padded(_ fields: String, to bytes: Int) -> Data {
        Data(("{" + fields + #","padding":""# + String(repeating: "x", count: bytes) + #""}"#).utf8)
    }

    @Test func aSignInEmailLongerThanAnyAddressIsRefusedNamingTheFieldAndCountsNothing() async throws {
        try await withTestApp { app in
            let local = String(repeating: "a", count: 64)
            let longest = local + "@" + String(repeating: "b", count: 254 - 64 - 1 - 4) + ".com"
            #expect(longest.utf8.count == 254)
            let tooLong = "a" + longest

            let refused = try await app.send("POST", "/v1/sessions", body: try Self.signIn(email: tooLong))
            #expect(refused.status == 400)
            #expect(refused.problem?.field == "email")
            #expect(try await app.count("login_throttle") == 0)

            let accepted = try await app.send("POST", "/v1/sessions", body: try Self.signIn(email: longest))
            #expect(accepted.status == 401)
        }
    }

    @Test func aSignInPasswordLongerThanBcryptReadsIsRefusedNamingTheField() async throws {
        try await withTestApp { app in
            let body = try Self.signIn(email: "someone@example.com", password: String(repeating: "p", count: 73))
            let refused = try await app.send("POST", "/v1/sessions", body: body)
            #expect(refused.status == 400)
            #expect(refused.problem?.field == "password")
            #expect(try await app.count("login_throttle") == 0)
        }
    }

    @Test func routesWithoutCredentialsTakeSmallBodiesAndDeviceRoutesKeepTheConfiguredLimit() async throws {
        try await withTestApp { app in
            let credentials = #""email":"someone@example.com","password":"wrong password!""#
            for path in ["/v1/sessions", "/v1/accounts"] {
                let response = try await app.send("POST", path, body: Self.padded(credentials, to: 17 * 1024))
                #expect(response.status == 413, "\(path)")
                #expect(response.problem?.type == ProblemType.payloadTooLarge.uri)
            }
            let notification = try await app.send(
                "POST", "/v1/notifications/appstore", body: Self.padded(#""signedPayload":"x""#, to: 300 * 1024))
            #expect(notification.status == 413)

            let account = try await app.signUp()
            let restore = try await app.send(
                "POST", "/v1/restore", token: account.token, body: Self.padded(#""entries":[]"#, to: 1024 * 1024))
            #expect(restore.status == 200)
            #expect(try await app.count("accounts") == 1)
        }
    }

    /// A flood of distinct emails from one address: the address's window fills, and the
    /// throttle keeps at most one row per email it let through plus the address's — the process
    /// keeps none — and the rows go once their window has passed.
    @Test func aFloodOfDistinctEmailsLeavesBoundedThrottleStateThatExpires() async throws {
        let perAddress = 20
        try await withLiveServer(configure: { $0.loginLimits.attemptsPerAddress = perAddress }) { server in
            var statuses: [Int: Int] = [:]
            for index in 0..<(perAddress * 5) {
                let email = "flood-\(index)-" + String(repeating: "x", count: 200) + "@example.com"
                let response = try await server.send("POST", "/v1/sessions", body: try Self.signIn(email: email))
                statuses[response.status, default: 0] += 1
            }
            #expect(statuses == [401: perAddress, 429: perAddress * 4])
            #expect(try await server.count("login_throttle") <= perAddress + 1)

            server.clock.advance(by: TimeInterval(server.configuration.loginLimits.windowSeconds + 1))
            let later = try await server.send("POST", "/v1/sessions", body: try Self.signIn(email: "later@example.com"))
            #expect(later.status == 401)
            // The expired rows are gone; what remains is this attempt's address and email.
            #expect(try await server.count("login_throttle") == 2)
        }
    }
}
