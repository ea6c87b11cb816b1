import AppStorePayloads
import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// Wherever a database connection breaks during a device's request or Apple's notification
/// (after any message PostgreSQL sends, on whichever of the server's connections it comes: the
/// request's, the change feed's), the sender is answered as if nothing broke, or 503
/// problem+json it may retry; never a 500. Sent again, the request succeeds, and what it
/// writes is written once.
///
/// The server reaches its database through a ``SessionEndingProxy``. Each round prepares its
/// own account (so every round's request is the same) and ends a session after the k-th message
/// from the moment its request is sent, for every k until a request runs without reaching its
/// k-th message. PostgreSQL goes on with what it had received, as it does behind a pooler that
/// lost it, so a 503 may come with the write already made.
@Suite(.serialized) struct SessionEndedDuringRequestsTests {
    enum Route: String, CaseIterable, Sendable {
        case signUp, signIn, upload, restore, lookup, refundNotification, accountDeletion
    }

    /// One round's request, and what its answer must show.
    private struct Round {
        let send: () async throws -> TestResponse
        /// The status of success.
        let success: Int
        /// What else may answer it sent again after a 503 (a sign-up that was made: 409).
        let alsoWhenSentAgain: Set<Int>
        /// Checks, once it succeeded, what it wrote or answered.
        let check: (TestResponse) async throws -> Void
    }

    private static let maxRounds = 300
    /// A liveness bound on the retries after a 503 while the server replaces its connections.
    private static let patience: Duration = .seconds(60)

    @Test(arguments: Route.allCases, [SessionEndingProxy.Ending.drop, .poolerLostServer])
    func everyAnswerSucceedsOrIs503AndSentAgainSucceedsOnce(route: Route, ending: SessionEndingProxy.Ending) async throws {
        let database = try await TestDatabase.makeDatabase()
        let proxy = try SessionEndingProxy(upstream: database)
        defer { proxy.stop() }
        let direct = ConnectionPool(configuration: database, size: 1, logger: TestCluster.logger)
        do {
            // Every round signs up, and may sign in, from the same address.
            try await withLiveServer(database: proxy.configuration) { configuration in
                configuration.loginLimits.signUpsPerAddress = 10 * Self.maxRounds
                configuration.loginLimits.attemptsPerAddress = 10 * Self.maxRounds
            } _: { server in
                try await runRounds(route: route, ending: ending, server: server, proxy: proxy, direct: direct)
            }
        } catch {
            await direct.shutdown()
            throw error
        }
        await direct.shutdown()
    }

    private func runRounds(
        route: Route, ending: SessionEndingProxy.Ending, server: TestServer, proxy: SessionEndingProxy,
        direct: ConnectionPool
    ) async throws {
        var unavailable = 0
        for k in 1...Self.maxRounds {
            let round = try await prepare(route, on: server, direct: direct)
            let (first, ended) = try await proxy.endingSession(afterMessages: k, with: ending) { try await round.send() }
            switch first.status {
            case round.success:
                try await round.check(first)
            case 503:
                unavailable += 1
                #expect(first.header("Content-Type") == "application/problem+json", "round \(k)")
                let again = try await sendUntilAnswered(round)
                #expect(again.status == round.success || round.alsoWhenSentAgain.contains(again.status),
                        "round \(k): sent again, answered \(again.status)")
                try await round.check(again)
            default:
                Issue.record("round \(k): \(route) answered \(first.status): \(first.problem?.detail ?? "")")
            }
            guard ended else {
                // The request ran whole before its k-th message: every point before was tried.
                #expect(unavailable > 0, "a \(route) took \(k - 1) messages, none answered 503")
                return
            }
        }
        Issue.record("a \(route) still had a message after \(Self.maxRounds)")
    }

    /// A round of `route` on an account of its own, made before any session is ended.
    private func prepare(_ route: Route, on server: TestServer, direct: ConnectionPool) async throws -> Round {
        if route == .signUp {
            let credentials = Credentials(
                email: "round-\(UUID().uuidString.prefix(8))@example.com", password: TestServer.password, deviceName: "iPhone")
            return Round(
                send: { try await server.send("POST", "/v1/accounts", json: credentials) }, success: 201,
                alsoWhenSentAgain: [409],
                check: { _ in
                    let accounts = try await Self.count(
                        "SELECT count(*) FROM accounts WHERE email_normalized = \(credentials.email.lowercased())", in: direct)
                    #expect(accounts == 1, "sign-up of \(credentials.email): \(accounts) accounts")
                })
        }
        let account = try await server.signUp()
        switch route {
        case .signIn:
            let email = try await Self.email(of: account.accountId, in: direct)
            return Round(
                send: { try await server.send("POST", "/v1/sessions", json: Credentials(email: email, password: TestServer.password)) },
                success: 200, alsoWhenSentAgain: [],
                check: { answer in
                    let session = try answer.decode(SessionResponse.self)
                    #expect(session.accountId == account.accountId)
                })
        case .accountDeletion:
            return Round(
                send: { try await server.deleteAccount(token: account.token, password: TestServer.password) }, success: 204,
                // Deleted by the first request: its token went with the account.
                alsoWhenSentAgain: [401],
                check: { _ in
                    let deleted = try await Self.count(
                        "SELECT count(*) FROM accounts WHERE account_id = \(account.accountId) AND deleted_at IS NOT NULL", in: direct)
                    #expect(deleted == 1, "account \(account.accountId) deleted")
                })
        default:
            break
        }
        if route == .refundNotification {
            let purchase = TestPurchase.buy(TestCatalog.lifetime, on: server, purchased: server.clock.now().addingTimeInterval(-86_400))
            _ = try await server.upload(purchase.jws, token: account.token)
            let refund = purchase.refunded(at: server.clock.now(), on: server)
            let uuid = UUID()
            return Round(
                send: { try await server.postNotification(.refund, uuid: uuid, transaction: refund.record) }, success: 200,
                alsoWhenSentAgain: [],
                check: { _ in
                    let notifications = try await Self.count(
                        "SELECT count(*) FROM notifications WHERE notification_uuid = \(uuid)", in: direct)
                    let revoked = try await Self.count(
                        """
                        SELECT count(*) FROM transactions
                        WHERE transaction_id = \(purchase.record.transactionId) AND revocation_date IS NOT NULL
                        """, in: direct)
                    #expect(notifications == 1 && revoked == 1, "notification \(uuid): \(notifications) kept, \(revoked) revoked")
                })
        }
        let purchase = server.signer.signedPurchase(of: TestCatalog.lifetime, at: server.clock.now())
        let stored = { () async throws -> Int in
            try await Self.count("SELECT count(*) FROM transactions WHERE transaction_id = \(purchase.transactionId)", in: direct)
        }
        let send: () async throws -> TestResponse
        switch route {
        case .signUp, .signIn, .upload, .refundNotification, .accountDeletion:
            send = {
                try await server.send(
                    "POST", "/v1/transactions", token: account.token,
                    json: UploadTransactionRequest(signedTransaction: purchase.signedTransaction!))
            }
        case .restore:
            send = {
                try await server.send(
                    "POST", "/v1/restore", token: account.token, json: RestoreRequest(entries: [purchase], userInitiated: true))
            }
        case .lookup:
            _ = try await server.upload(purchase.signedTransaction!, token: account.token)
            return Round(
                send: { try await server.send("GET", "/v1/entitlements", token: account.token) }, success: 200,
                alsoWhenSentAgain: [],
                check: { answer in
                    let snapshot = try answer.decode(Snapshot.self)
                    #expect(snapshot.transactions.map(\.transactionId) == [purchase.transactionId])
                })
        }
        return Round(send: send, success: 200, alsoWhenSentAgain: []) { _ in
            let rows = try await stored()
            #expect(rows == 1, "\(route) of \(purchase.transactionId): stored \(rows) times")
        }
    }

    /// Sends again while the server answers 503 (its pool replacing the connection it lost).
    private func sendUntilAnswered(_ round: Round) async throws -> TestResponse {
        let deadline = ContinuousClock.now + Self.patience
        while true {
            let response = try await round.send()
            guard response.status == 503, ContinuousClock.now < deadline else { return response }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The account's email, read directly, past the proxy.
    private static func email(of account: UUID, in direct: ConnectionPool) async throws -> String {
        try await direct.withConnection { connection in
            try #require(try await connection.query("SELECT email FROM accounts WHERE account_id = \(account)").first).decode(String.self)
        }
    }

    /// A count read directly, past the proxy.
    private static func count(_ query: PostgresQuery, in direct: ConnectionPool) async throws -> Int {
        try await direct.withConnection { try #require(try await $0.query(query).first).decode(Int.self) }
    }
}
