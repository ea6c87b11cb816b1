import AppStorePayloads
import Foundation
import PostgresLibPQ
import PostgresLibPQTesting
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Synchronization
import Testing

/// One instance refunds a purchase while another holds the account's snapshot in its cache and
/// its database sessions break: the other instance stops granting the purchase (soon, and for
/// good), wherever its sessions end, the change listener's or the change poll's included, and
/// when the notification of the change is lost on its way.
///
/// Instance A reaches PostgreSQL directly; instance B, whose cache is under test, through a
/// ``SessionEndingProxy``, hearing of changes by `LISTEN` or, as behind a transaction pooler,
/// by polling. Each round prepares its own account and purchase, caches the account on B, and
/// ends one of B's sessions at the k-th message from the moment A is sent the refund.
@Suite(.serialized) struct ListenerSessionEndedTests {
    private static let maxRounds = 200
    /// How long B may take to stop granting the refunded purchase: far more than a listener's
    /// reconnect (its first retry comes after 0.25 s) or three polls, far less than a cached
    /// snapshot's 60 s.
    private static let propagation: Duration = .seconds(10)
    /// B's poll interval when it polls.
    private static let pollMilliseconds = 100

    /// How B hears of other instances' changes.
    enum Feed: Sendable, CaseIterable {
        /// `LISTEN` on a connection of its own: a round ends once it runs without reaching its
        /// k-th message (the refund's notification, then B's lookups), so every point is tried.
        case listening
        /// A poll through the pool every ``pollMilliseconds``: polls never stop sending
        /// messages, so the rounds go on for as many messages as a round with nothing broken
        /// takes (a poll or two and the lookups), and then as many again.
        case polling
    }

    @Test(arguments: Feed.allCases, [SessionEndingProxy.Ending.cut, .drop, .adminShutdown])
    func theOtherInstanceStopsGrantingARefundedPurchaseWhereverItsSessionsEnd(
        feed: Feed, ending: SessionEndingProxy.Ending
    ) async throws {
        try await withTwoInstances(feed) { a, b, proxy in
            let rounds = feed == .listening
                ? Self.maxRounds : min(Self.maxRounds, 2 * (try await messagesOfAnUnbrokenRound(a: a, b: b, proxy: proxy)))
            for k in 1...rounds {
                let round = try await prepareRound(a: a, b: b)
                let (_, ended) = try await proxy.endingSession(afterMessages: k, with: ending) {
                    try await round.refundAndWatch(k)
                }
                guard ended || feed == .polling else {
                    // The refund's notification and B's lookups of the account after it.
                    #expect(k > 2, "the rounds reached only \(k - 1) messages")
                    return
                }
            }
            #expect(feed == .polling, "a round still had a message after \(Self.maxRounds)")
        }
    }

    /// How many messages B's sessions receive in a round where nothing breaks (counted by a
    /// trigger that never fires).
    private func messagesOfAnUnbrokenRound(a: TestServer, b: TestServer, proxy: SessionEndingProxy) async throws -> Int {
        let round = try await prepareRound(a: a, b: b)
        let counted = Mutex(0)
        proxy.endSession(after: { _, _ in
            counted.withLock { $0 += 1 }
            return false
        }, with: .drop)
        defer { proxy.disarm() }
        try await round.refundAndWatch(0)
        return max(counted.withLock { $0 }, 2)
    }

    /// The notification itself cut on its way to B's listener, the exact message picked: B
    /// never reads that the account changed, only that its listener's connection went.
    @Test func aChangeWhoseNotificationIsLostIsNotServedStale() async throws {
        try await withTwoInstances(.listening) { a, b, proxy in
            let round = try await prepareRound(a: a, b: b)
            proxy.endSession(after: { type, _ in type == UInt8(ascii: "A") }, with: .cut)
            try await round.refundAndWatch(0)
            #expect(proxy.hasFired, "the notification went through B's listener and was cut")
        }
    }

    /// A refund to send through A, and B's lookups of the account it changes.
    private struct Round {
        let send: () async throws -> TestResponse
        let lookUp: () async throws -> TestResponse

        /// Sends the refund, then looks up through B until it no longer grants the purchase,
        /// and a few times more: once B answered without it, B never grants it again. B may
        /// answer 503 meanwhile (its own session just ended).
        func refundAndWatch(_ k: Int) async throws {
            let refund = try await send()
            #expect(refund.status == 200, "round \(k): the refund answered \(refund.status)")
            let revoked = try await eventually(within: ListenerSessionEndedTests.propagation) {
                try await grants(try await lookUp(), k) == false
            }
            #expect(revoked, "round \(k): B still grants the refunded purchase after \(ListenerSessionEndedTests.propagation)")
            for _ in 0..<3 {
                #expect(try await grants(try await lookUp(), k) != true, "round \(k): B granted the purchase again")
            }
        }

        /// Whether B's answer grants the purchase; `nil` for a 503.
        private func grants(_ answer: TestResponse, _ k: Int) throws -> Bool? {
            if answer.status == 503 { return nil }
            #expect(answer.status == 200, "round \(k): a lookup answered \(answer.status)")
            return try !answer.decode(Snapshot.self).entitlements.isEmpty
        }
    }

    /// An account with a purchase, its snapshot cached on B, and the refund A will be sent.
    private func prepareRound(a: TestServer, b: TestServer) async throws -> Round {
        let account = try await a.signUp()
        let purchase = TestPurchase.buy(TestCatalog.lifetime, on: a, purchased: a.clock.now().addingTimeInterval(-86_400))
        _ = try await a.upload(purchase.jws, token: account.token)
        let lookUp = { try await b.send("GET", "/v1/entitlements", token: account.token) }
        // Twice: the first may be the 503 of a connection the last round's ending broke.
        var cached = try await lookUp()
        if cached.status == 503 { cached = try await lookUp() }
        try #require(cached.status == 200, "B answers the lookup first")
        try #require(!(try cached.decode(Snapshot.self).entitlements.isEmpty), "B grants the purchase first")
        let refund = purchase.refunded(at: a.clock.now(), on: a)
        return Round(send: { try await a.postNotification(.refund, uuid: UUID(), transaction: refund.record) }, lookUp: lookUp)
    }

    /// Two instances on one database, A directly, B through the proxy with the `feed` it is given.
    private func withTwoInstances(
        _ feed: Feed, _ body: (TestServer, TestServer, SessionEndingProxy) async throws -> Void
    ) async throws {
        let database = try await TestDatabase.makeDatabase()
        let proxy = try SessionEndingProxy(upstream: database)
        defer { proxy.stop() }
        var throughProxy = proxy.configuration
        // Without a direct connection for LISTEN, a server polls.
        throughProxy.usesTransactionPooler = feed == .polling
        // Every round signs up on A from the same address.
        try await withLiveServer(database: database) { $0.loginLimits.signUpsPerAddress = 10 * Self.maxRounds } _: { a in
            try await withLiveServer(database: throughProxy) { $0.databaseChangePollMilliseconds = Self.pollMilliseconds } _: { b in
                try await body(a, b, proxy)
            }
        }
    }
}
