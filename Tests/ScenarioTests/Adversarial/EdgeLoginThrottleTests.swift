import Foundation
import StoreSyncAPI
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Finding 4 of the adversarial review: sign-in and sign-up throttling that holds under
/// concurrency, behind a load balancer and across instances, with bounded password work.
@Suite("Adversarial: login throttling") struct EdgeLoginThrottleTests {
    private static func credentials(_ email: String, _ password: String = "wrong password!") -> Credentials {
        Credentials(email: email, password: password)
    }

    /// Statuses of `count` requests sent at once.
    private static func concurrently(
        _ count: Int, _ request: @escaping @Sendable (Int) async throws -> TestResponse
    ) async throws -> [TestResponse] {
        try await withThrowingTaskGroup(of: TestResponse.self) { group in
            for index in 0..<count { group.addTask { try await request(index) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func aConcurrentBurstOfGuessesGetsNoMoreThanTheLimit() async throws {
        let limit = 5
        try await withTestApp(configure: { $0.loginLimits.failuresPerEmail = limit }) { app in
            _ = try await app.signUp(email: "target@example.com")
            let responses = try await Self.concurrently(40) { _ in
                try await app.send("POST", "/v1/sessions", json: Self.credentials("target@example.com"))
            }
            let statuses = responses.map(\.status)
            #expect(Set(statuses).isSubset(of: [401, 429]), "\(statuses)")
            #expect(statuses.filter { $0 == 401 }.count == limit)
            #expect(responses.filter { $0.status == 429 }.allSatisfy { Int($0.header("Retry-After") ?? "") ?? 0 > 0 })
        }
    }

    /// Two instances behind one load balancer, on one database: guesses spread over both count
    /// together.
    @Test func twoInstancesOnOneDatabaseShareTheThrottle() async throws {
        try await withLiveServer(configure: { $0.loginLimits.failuresPerEmail = 4 }) { first in
            _ = try await first.signUp(email: "shared@example.com")
            try await withSecondInstance(of: first) { second in
                for instance in [first, second, first, second] {
                    let guess = try await instance.send("POST", "/v1/sessions", json: Self.credentials("shared@example.com"))
                    #expect(guess.status == 401)
                }
                for instance in [first, second] {
                    let refused = try await instance.send(
                        "POST", "/v1/sessions", json: Self.credentials("shared@example.com", TestServer.password))
                    #expect(refused.status == 429)
                }
            }
        }
    }

    @Test func aTrustedProxyNamesTheClientSoClientsBehindItHaveTheirOwnWindows() async throws {
        try await withServerBehindALoopbackProxy(attemptsPerAddress: 3) { (server) async throws in
            for _ in 0..<3 { #expect(try await Self.signIn(on: server, forwardedFor: "203.0.113.7") == 401) }
            #expect(try await Self.signIn(on: server, forwardedFor: "203.0.113.7") == 429)
            // What the client wrote left of the hop the proxy appended is not believed.
            #expect(try await Self.signIn(on: server, forwardedFor: "198.51.100.1, 203.0.113.7") == 429)
            #expect(try await Self.signIn(on: server, forwardedFor: "203.0.113.8") == 401)
        }
    }

    /// A host is given a whole IPv6 /64 and may send from any address in it: the window is
    /// the network's, not each address's.
    @Test func anIPv6ClientsAddressesShareTheirSlash64sWindow() async throws {
        try await withServerBehindALoopbackProxy(attemptsPerAddress: 3) { (server) async throws in
            for host in 1...3 { #expect(try await Self.signIn(on: server, forwardedFor: "2001:db8:1:2::\(host)") == 401) }
            #expect(try await Self.signIn(on: server, forwardedFor: "2001:db8:1:2:ffff::4") == 429)
            #expect(try await Self.signIn(on: server, forwardedFor: "2001:db8:1:3::1") == 401, "another /64 is another client")
        }
    }

    /// A live server that trusts loopback as its load balancer, so each request names its
    /// client in `X-Forwarded-For`.
    private func withServerBehindALoopbackProxy(
        attemptsPerAddress: Int, _ body: @Sendable (TestServer) async throws -> Void
    ) async throws {
        let loopbackProxy = try #require(TrustedProxies(list: "127.0.0.1/32"))
        try await withLiveServer(configure: {
            $0.loginLimits.attemptsPerAddress = attemptsPerAddress
            $0.trustedProxies = loopbackProxy
        }) { (server) async throws in try await body(server) }
    }

    /// The status of a sign-in with a fresh email, carrying `X-Forwarded-For`.
    private static func signIn(on server: TestServer, forwardedFor: String) async throws -> Int {
        try await server.send(
            "POST", "/v1/sessions", body: try StoreSyncJSON.makeEncoder().encode(credentials("\(UUID())@example.com")),
            headers: ["X-Forwarded-For": forwardedFor]
        ).status
    }

    @Test func withoutTrustedProxiesForwardedForIsIgnored() async throws {
        try await withLiveServer(configure: { $0.loginLimits.attemptsPerAddress = 3 }) { server in
            var statuses: [Int] = []
            for index in 0..<4 {
                statuses.append(try await Self.signIn(on: server, forwardedFor: "203.0.113.\(index)"))
            }
            #expect(statuses == [401, 401, 401, 429])
        }
    }

    @Test func signUpIsThrottledPerAddress() async throws {
        try await withLiveServer(configure: { $0.loginLimits.signUpsPerAddress = 3 }) { server in
            for _ in 0..<3 { _ = try await server.signUp() }
            let refused = try await server.send(
                "POST", "/v1/accounts", json: Credentials(email: "one-more@example.com", password: TestServer.password))
            #expect(refused.status == 429)
            #expect(Int(refused.header("Retry-After") ?? "") ?? 0 > 0)
            #expect(try await server.count("accounts") == 3)
        }
    }

    /// With one place for a password hash, and hashes slow enough to overlap, the sign-ups
    /// that find it taken are refused at once with 503 and `Retry-After`, not queued.
    @Test func aFullPasswordQueueAnswers503WithRetryAfter() async throws {
        try await withTestApp(configure: {
            $0.passwordChecks = 1
            $0.passwordHashCost = 14
        }) { app in
            let responses = try await Self.concurrently(6) { index in
                try await app.send(
                    "POST", "/v1/accounts", json: Credentials(email: "queued-\(index)@example.com", password: TestServer.password))
            }
            let statuses = responses.map(\.status)
            #expect(Set(statuses).isSubset(of: [201, 503]), "\(statuses)")
            #expect(statuses.contains(201))
            let busy = responses.filter { $0.status == 503 }
            #expect(!busy.isEmpty)
            #expect(busy.allSatisfy { $0.header("Retry-After") == "1" })
            #expect(try await app.count("accounts") == statuses.filter { $0 == 201 }.count)
        }
    }
}
