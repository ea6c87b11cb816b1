import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite("Concurrent restores") struct ConcurrentRestoreTests {
    /// What one account ends with, without the ids that differ from account to account.
    struct Outcome: Equatable, CustomStringConvertible {
        var version: Int64
        var entitlements: [String]
        var transactionRows: Int
        var events: [String]
        var ownedByTheAccount: Bool
        var devicesAgree: Bool
        var matchesTheDomain: Bool

        var description: String {
            "v\(version) \(entitlements) rows \(transactionRows) events \(events) owned \(ownedByTheAccount) agree \(devicesAgree) domain \(matchesTheDomain)"
        }
    }

    static let rounds = 20

    @Test("11. Two devices restore the same account at the same moment, repeatedly → same state as one after the other")
    func concurrentRestoresEqualSequentialOnes() async throws {
        try await Scenario.run { scenario in
            for round in 1...Self.rounds {
                let concurrent = try await Self.round(in: scenario, name: "C\(round)", concurrently: true)
                let sequential = try await Self.round(in: scenario, name: "S\(round)", concurrently: false)
                #expect(concurrent == sequential, "round \(round): concurrent \(concurrent), sequential \(sequential)")
                #expect(sequential.ownedByTheAccount && sequential.devicesAgree && sequential.matchesTheDomain)
            }
        }
    }

    /// One account, two devices that recorded overlapping purchases while offline (the same
    /// chain under two transaction ids, the same JWS on both, a stack of season passes), then
    /// both restore — together or one after the other.
    static func round(in scenario: Scenario, name: String, concurrently: Bool) async throws -> Outcome {
        let server = scenario.server
        try await scenario.accounts(name)
        let start = server.clock.now()
        let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server, purchased: start)
        let lifetimeAgain = TestPurchase.buy(TestCatalog.lifetime, on: server, original: lifetime.record.originalTransactionId, purchased: start)
        let firstPass = TestPurchase.buy(TestCatalog.seasonPass, on: server, purchased: start.addingTimeInterval(-3600))
        let secondPass = TestPurchase.buy(TestCatalog.seasonPass, on: server, purchased: start.addingTimeInterval(-60))
        let monthly = TestPurchase.buy(TestCatalog.monthly, on: server, purchased: start)
        let onA = [lifetime, firstPass, monthly]
        let onB = [lifetimeAgain, secondPass, monthly]

        let a = try await scenario.device("A-\(name)", signedInTo: name)
        let b = try await scenario.device("B-\(name)", signedInTo: name)
        for (device, purchases) in [(a, onA), (b, onB)] {
            device.transport.isOffline = true
            for purchase in purchases { _ = try await device.client.record(signedTransaction: purchase.jws) }
            device.transport.isOffline = false
        }
        if concurrently {
            async let first = a.client.restore()
            async let second = b.client.restore()
            _ = try await (first, second)
        } else {
            _ = try await a.client.restore()
            _ = try await b.client.restore()
        }
        _ = try await a.client.refresh()
        _ = try await b.client.refresh()

        let account = scenario.account(name)
        let snapshot = try await server.send("GET", "/v1/entitlements", token: account.session.token).decode(Snapshot.self)
        let all = (onA + onB).map(\.record)
        let domain = entitlements(ledger: Ledger(records: all), catalog: Catalog(TestCatalog.products), at: start)
        var owned = true
        var events: [String] = []
        for id in Set(all.map(\.originalTransactionId)) {
            owned = try await server.owner(of: id) == account.id && owned
            events += try await server.events(of: id).map(\.kind)
        }
        let aShows = await a.client.entitlements().entitlements
        let bShows = await b.client.entitlements().entitlements
        return Outcome(
            version: try await server.versions()[account.id] ?? 0,
            entitlements: snapshot.entitlements.map { "\($0.entitlementId):\($0.productId):\($0.expiresAt?.timeIntervalSince(start) ?? -1)" }.sorted(),
            transactionRows: try await rows(of: account.id, in: server), events: events.sorted(), ownedByTheAccount: owned,
            devicesAgree: Set(aShows) == Set(snapshot.entitlements) && Set(bShows) == Set(snapshot.entitlements),
            matchesTheDomain: Set(domain) == Set(snapshot.entitlements))
    }

    static func rows(of accountId: UUID, in server: TestServer) async throws -> Int {
        try await server.database.withConnection { connection in
            try await connection.query("SELECT count(*)::bigint FROM transactions WHERE account_id = \(accountId)").first!
                .decode(Int.self)
        }
    }
}
