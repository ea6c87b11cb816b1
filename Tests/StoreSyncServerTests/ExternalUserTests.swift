import AppStorePayloads
import Foundation
import StoreSyncAPI
import StoreSyncCore
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

/// Bring your own identity: the app's backend binds its own user ids to accounts, mints their
/// device sessions, looks them up and deletes them, all with the admin key.
@Suite struct ExternalUserTests {
    private func path(_ id: String) -> String { "/v1/admin/users/\(TestServer.pathComponent(id))" }

    @Test func theFirstCallCreatesTheAccountAndEveryLaterOneReturnsIt() async throws {
        try await withServer { server in
            let created = try await server.send("PUT", path("user-1"), token: server.adminKey)
            #expect(created.status == 201)
            let user = try created.decode(ExternalUser.self)
            #expect(user.externalUserId == "user-1")

            let again = try await server.send("PUT", path("user-1"), token: server.adminKey)
            #expect(again.status == 200)
            #expect(try again.decode(ExternalUser.self) == user)
            #expect(try await server.count("accounts") == 1)
        }
    }

    /// An app whose backend already tagged its users' StoreKit purchases with its own UUIDs:
    /// the account takes that token, and a purchase Apple reports with it belongs to it.
    @Test func anAccountTakesTheTokenTheAppAlreadyGivesStoreKit() async throws {
        try await withServer { server in
            let token = UUID()
            let created = try await server.send("PUT", path("user-1"), token: server.adminKey, json: ExternalUserRequest(appAccountToken: token))
            #expect(created.status == 201)
            let user = try created.decode(ExternalUser.self)
            #expect(user.appAccountToken == token)
            let again = try await server.send("PUT", path("user-1"), token: server.adminKey, json: ExternalUserRequest(appAccountToken: token))
            #expect(again.status == 200)
            #expect(try await server.send("PUT", path("user-1"), token: server.adminKey).status == 200, "no body: the account as it is")

            // A purchase made before the account existed, tagged by the app, arrives from Apple.
            let purchase = TestPurchases.record(purchased: server.clock.now(), token: token)
            #expect(try await server.notify(.oneTimeCharge, transaction: purchase) == "processed")
            #expect(try await server.owner(of: purchase.originalTransactionId) == user.accountId)
        }
    }

    /// A token never changes once bound, and is never two accounts'; neither attempt changes anything.
    @Test func aTokenOfAnotherAccountOrAnotherTokenForThisOneIsAConflict() async throws {
        try await withServer { server in
            let token = UUID()
            let first = try await server.send("PUT", path("user-1"), token: server.adminKey, json: ExternalUserRequest(appAccountToken: token))
            #expect(first.status == 201)
            let taken = try await server.send("PUT", path("user-2"), token: server.adminKey, json: ExternalUserRequest(appAccountToken: token))
            #expect(taken.status == 409)
            #expect(taken.problem?.field == "appAccountToken")
            let emailAccount = try await server.signUp()
            let other = try await server.send(
                "PUT", path("user-3"), token: server.adminKey, json: ExternalUserRequest(appAccountToken: emailAccount.appAccountToken))
            #expect(other.status == 409)
            let changed = try await server.send("PUT", path("user-1"), token: server.adminKey, json: ExternalUserRequest(appAccountToken: UUID()))
            #expect(changed.status == 409)
            let nilToken = try await server.send(
                "PUT", path("user-4"), token: server.adminKey,
                json: ExternalUserRequest(appAccountToken: UUID(uuidString: "00000000-0000-0000-0000-000000000000")))
            #expect(nilToken.status == 400)
            #expect(try await server.count("accounts") == 2, "the first user and the email account")
            let bound = try await server.send("PUT", path("user-1"), token: server.adminKey).decode(ExternalUser.self)
            #expect(bound.appAccountToken == token)
        }
    }

    @Test func concurrentFirstCallsCreateOneAccount() async throws {
        try await withServer { server in
            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<6 { group.addTask { try await server.send("PUT", path("racer"), token: server.adminKey) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.filter { $0.status == 201 }.count == 1)
            #expect(answers.allSatisfy { $0.status == 201 || $0.status == 200 })
            #expect(Set(try answers.map { try $0.decode(ExternalUser.self).accountId }).count == 1)
        }
    }

    @Test func aMintedSessionWorksLikeASignedInOneAndShowsInTheLookup() async throws {
        try await withServer { server in
            let session = try await server.mintSession(forExternalUser: "alice@backend", adminKey: server.adminKey, deviceName: "iPhone")
            let bought = TestPurchases.record(purchased: server.clock.now(), token: session.appAccountToken)
            _ = try await server.buy(bought, token: session.token)

            let lookup = try await server.send("GET", path("alice@backend") + "/entitlements", token: server.adminKey)
            #expect(lookup.status == 200)
            #expect(try lookup.decode(Snapshot.self).entitlements.map(\.entitlementId) == ["premium"])
            #expect(lookup.header("ETag") != nil)
            let list = try await server.send("GET", "/v1/sessions", token: session.token).decode(SessionList.self)
            #expect(list.sessions.map(\.deviceName) == ["iPhone"])
        }
    }

    @Test func deletingByTheBackendsIdErasesTheAccountAndItsSessions() async throws {
        try await withServer { server in
            let session = try await server.mintSession(forExternalUser: "bob", adminKey: server.adminKey)
            _ = try await server.buy(TestPurchases.record(purchased: server.clock.now()), token: session.token)

            #expect(try await server.send("DELETE", path("bob"), token: server.adminKey).status == 204)

            #expect(try await server.send("GET", "/v1/entitlements", token: session.token).status == 401)
            #expect(try await server.send("GET", path("bob") + "/entitlements", token: server.adminKey).status == 404)
            #expect(try await server.send("DELETE", path("bob"), token: server.adminKey).status == 404)
            #expect(try await server.accountEvents(session.accountId).last?.kind == "accountDeleted")
            let rebound = try await server.send("PUT", path("bob"), token: server.adminKey)
            #expect(rebound.status == 201)
            #expect(try rebound.decode(ExternalUser.self).accountId != session.accountId)
        }
    }

    @Test func anUnknownIdIsNotFoundOnEveryRoute() async throws {
        try await withServer { server in
            #expect(try await server.send("GET", path("nobody") + "/entitlements", token: server.adminKey).status == 404)
            #expect(try await server.send("DELETE", path("nobody"), token: server.adminKey).status == 404)
            let minted = try await server.send(
                "POST", path("nobody") + "/sessions", token: server.adminKey, json: DeviceSessionRequest())
            #expect(minted.status == 404)
            #expect(try await server.count("accounts") == 0)
        }
    }

    @Test(arguments: [
        String(repeating: "u", count: 256), String(repeating: "é", count: 256), "line\nbreak", "nul\u{0}", "tab\tuser",
        "bell\u{7}", "\u{2028}", "private\u{E000}",
    ])
    func anIdThatIsNotOneTo255PrintableCharactersIsABadRequestNamingTheField(id: String) async throws {
        try await withServer { server in
            for (method, suffix) in [("PUT", ""), ("POST", "/sessions"), ("GET", "/entitlements"), ("DELETE", "")] {
                let response = try await server.send(method, path(id) + suffix, token: server.adminKey)
                #expect(response.status == 400, "\(method) \(suffix)")
                #expect(response.problem?.field == "externalUserId")
            }
            #expect(try await server.count("accounts") == 0)
        }
    }

    @Test(arguments: [String(repeating: "u", count: 255), "Zoë 🧑‍💻 #7", "a/b?c=d&e", "urn:user:42", " spaced "])
    func anyOneTo255PrintableCharactersAreAnId(id: String) async throws {
        try await withServer { server in
            let response = try await server.send("PUT", path(id), token: server.adminKey)
            #expect(response.status == 201)
            #expect(try response.decode(ExternalUser.self).externalUserId == id)
        }
    }

    /// HTTP clients refuse to send such a path, so the decoding is checked on its own.
    @Test(arguments: ["user%FF", "user%E0%A4", "user%"])
    func aPathSegmentThatDoesNotDecodeToUTF8IsABadRequest(segment: String) throws {
        let error = try #require(throws: ProblemError.self) { try ExternalUserController.externalUserId(pathSegment: segment) }
        #expect(error.problem.field == "externalUserId")
        #expect(error.problem.status == 400)
        #expect(try ExternalUserController.externalUserId(pathSegment: "alice%40example.com") == "alice@example.com")
    }

    @Test func theRoutesNeedTheAdminKeyAndDoNotExistWithoutOne() async throws {
        try await withServer { server in
            let device = try await server.signUp()
            for token in [nil, device.token, "wrong-admin-key-of-some-length"] {
                #expect(try await server.send("PUT", path("eve"), token: token).status == 401)
            }
            #expect(try await server.count("accounts") == 1)
        }
        try await withServer(configure: { $0.adminAPIKey = nil }) { server in
            let response = try await server.send("PUT", path("eve"), token: "anything")
            #expect(response.status == 404)
        }
    }

    @Test func aMintedSessionsDeviceNameFollowsTheRulesOfSignIn() async throws {
        try await withServer { server in
            _ = try await server.send("PUT", path("carol"), token: server.adminKey)
            let response = try await server.send(
                "POST", path("carol") + "/sessions", token: server.adminKey,
                json: DeviceSessionRequest(deviceName: String(repeating: "n", count: 201)))
            #expect(response.status == 400)
            #expect(response.problem?.field == "deviceName")
            #expect(try await server.count("sessions") == 0)
        }
    }
}
