import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import StoreSyncAPI
import StoreSyncCore
import StoreSyncTesting
import Testing

/// Wherever a database connection breaks while a purchase is uploaded or restored (after any
/// message PostgreSQL sends, on whichever of the server's connections it comes: the request's,
/// the change feed's), the device is answered 200 with the purchase stored, or 503
/// problem+json it may retry; never a 500. Sent again, the purchase is stored once.
///
/// The server reaches its database through a ``SessionEndingProxy``. Each round signs up a new
/// account (so every round's request is the same) and ends a session after the k-th message
/// from the moment its request is sent, for every k until a request runs without reaching its
/// k-th message. PostgreSQL goes on with what it had received, as it does behind a pooler that
/// lost it, so a 503 may come with the purchase already stored.
@Suite(.serialized) struct SessionEndedDuringSyncTests {
    enum Route: String, CaseIterable, Sendable {
        case upload, restore
    }

    private static let maxRounds = 300
    /// A liveness bound on the retries after a 503 while the server replaces its connections.
    private static let patience: Duration = .seconds(30)

    @Test(arguments: Route.allCases, [SessionEndingProxy.Ending.drop, .poolerLostServer])
    func aPurchaseIsAnswered200AndStoredOr503AndStoredWhenSentAgain(route: Route, ending: SessionEndingProxy.Ending) async throws {
        let database = try await TestDatabase.makeDatabase()
        let proxy = try SessionEndingProxy(upstream: database)
        let direct = ConnectionPool(configuration: database, size: 1, logger: TestCluster.logger)
        let server = try await TestServer.start(serving: try await TestSetup.make(database: proxy.configuration))
        do {
            try await runRounds(route: route, ending: ending, server: server, proxy: proxy, direct: direct)
        } catch {
            await server.stop()
            await direct.shutdown()
            proxy.stop()
            throw error
        }
        await server.stop()
        await direct.shutdown()
        proxy.stop()
    }

    private func runRounds(
        route: Route, ending: SessionEndingProxy.Ending, server: TestServer, proxy: SessionEndingProxy,
        direct: ConnectionPool
    ) async throws {
        var unavailable = 0
        for round in 1...Self.maxRounds {
            let account = try await server.signUp()
            let purchase = server.signer.signedPurchase(of: TestCatalog.lifetime, at: server.clock.now())
            proxy.endSession(after: SessionEndingProxy.afterMessages(round), with: ending)
            let first = try await send(purchase, by: route, to: server, token: account.token)
            let fired = proxy.hasFired
            proxy.disarm()
            switch first.status {
            case 200:
                #expect(try await stored(purchase, in: direct) == 1, "round \(round): answered 200, stored once")
            case 503:
                unavailable += 1
                #expect(first.header("Content-Type") == "application/problem+json", "round \(round)")
                let again = try await sendUntilAnswered(purchase, by: route, to: server, token: account.token)
                #expect(again.status == 200, "round \(round): sent again, answered \(again.status)")
                #expect(try await stored(purchase, in: direct) == 1, "round \(round): sent twice, stored once")
            default:
                Issue.record("round \(round): \(route) answered \(first.status): \(first.problem?.detail ?? "")")
            }
            guard fired else {
                // The request ran whole before its k-th message: every point before was tried.
                #expect(round > 20 && unavailable > 0, "a \(route) took \(round - 1) messages, \(unavailable) answered 503")
                return
            }
        }
        Issue.record("a \(route) still had a message after \(Self.maxRounds)")
    }

    private func send(_ purchase: TransactionRecord, by route: Route, to server: TestServer, token: String) async throws -> TestResponse {
        switch route {
        case .upload:
            try await server.send(
                "POST", "/v1/transactions", token: token, json: UploadTransactionRequest(signedTransaction: purchase.signedTransaction!))
        case .restore:
            try await server.send(
                "POST", "/v1/restore", token: token, json: RestoreRequest(entries: [purchase], userInitiated: true))
        }
    }

    /// Sends again while the server answers 503 (its pool replacing the connection it lost).
    private func sendUntilAnswered(
        _ purchase: TransactionRecord, by route: Route, to server: TestServer, token: String
    ) async throws -> TestResponse {
        let deadline = ContinuousClock.now + Self.patience
        while true {
            let response = try await send(purchase, by: route, to: server, token: token)
            guard response.status == 503, ContinuousClock.now < deadline else { return response }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// How many rows hold the purchase, read directly, past the proxy.
    private func stored(_ purchase: TransactionRecord, in direct: ConnectionPool) async throws -> Int {
        try await direct.withConnection { connection in
            try #require(
                try await connection.query("SELECT count(*) FROM transactions WHERE transaction_id = \(purchase.transactionId)").first
            ).decode(Int.self)
        }
    }
}
