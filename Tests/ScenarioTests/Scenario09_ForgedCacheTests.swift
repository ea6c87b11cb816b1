import AppStorePayloads
import Foundation
import PostgresLibPQ
import StoreSyncAPI
import StoreSyncClient
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

/// A jailbroken device edits its cache. The device really bought coins (a consumable, no
/// entitlement); each forgery tries to turn that, or nothing, into premium.
@Suite("Forged cache") struct ForgedCacheTests {
    enum Forgery: String, CaseIterable, CustomTestStringConvertible {
        case productFlippedKeepingTheJWS = "productId flipped to premium in the cached ledger, JWS kept"
        case productFlippedWithoutTheJWS = "productId flipped to premium and the JWS stripped"
        case claimRecord = "an unsigned claim record for premium added to the cached ledger"
        case userDefaultsFlag = "a UserDefaults flag for an unowned product"

        var testDescription: String { rawValue }

        /// The verdict the server must answer for the forged item.
        var verdict: VerdictKind {
            switch self {
            case .productFlippedKeepingTheJWS, .productFlippedWithoutTheJWS: .rejected
            case .claimRecord, .userDefaultsFlag: .unverifiedClaim
            }
        }
    }

    @Test("9. Forged cache → rejected / unverifiedClaim, removed from the device, nothing granted", arguments: Forgery.allCases)
    func forgeryGrantsNothing(_ forgery: Forgery) async throws {
        try await Scenario.run { scenario in
            let server = scenario.server
            try await scenario.accounts("X")
            let coins = TestPurchase.buy(TestCatalog.coins, on: server)
            let purchase = coins.record.originalTransactionId
            let expected = Expectation(
                devices: ["A": []], accounts: ["X": []], owners: [purchase: "X"], events: [purchase: ["purchaseClaimed"]],
                holdings: ["X": [purchase]], purchases: 1)

            let store = InMemoryStore()
            let a = try await scenario.device("A", signedInTo: "X", store: store)
            _ = try await a.client.record(signedTransaction: coins.jws)
            let ledgerKey = "storesync.acct.\(scenario.account("X").id.uuidString.lowercased()).ledger"
            let forgedId = try await Self.forge(forgery, coins: coins, ledgerKey: ledgerKey, client: a.client, store: store)

            let outcome = try await a.client.restore()

            let forgedVerdicts = outcome.verdicts.filter {
                $0.transactionId == forgedId || ($0.productId == TestCatalog.lifetime && $0.transactionId.isEmpty)
            }
            #expect(forgedVerdicts.map(\.verdict) == [forgery.verdict])
            let cached = try Self.ledger(ledgerKey, in: store)
            #expect(!cached.contains { $0.productId == TestCatalog.lifetime }, "the forgery is gone from the device")
            #expect(await a.client.pendingLegacyFlags.isEmpty)
            if forgery == .userDefaultsFlag {
                #expect(outcome.droppedLegacyProducts == [TestCatalog.lifetime])
            } else {
                #expect(outcome.droppedTransactionIds == [try #require(forgedId)])
            }
            #expect(try await server.count("transactions") == 1, "nothing forged was stored")
            try await scenario.check(expected)
        }
    }

    /// Applies a forgery to the device's cache; returns the forged transaction id, if any.
    static func forge(
        _ forgery: Forgery, coins: TestPurchase, ledgerKey: String, client: StoreSyncClient, store: InMemoryStore
    ) async throws -> String? {
        var records = try ledger(ledgerKey, in: store)
        switch forgery {
        case .productFlippedKeepingTheJWS, .productFlippedWithoutTheJWS:
            let index = try #require(records.firstIndex { $0.transactionId == coins.record.transactionId })
            records[index].productId = TestCatalog.lifetime
            records[index].productType = .nonConsumable
            if forgery == .productFlippedWithoutTheJWS { records[index].signedTransaction = nil }
            try save(records, ledgerKey, in: store)
            return coins.record.transactionId
        case .claimRecord:
            var claim = coins.record
            claim.transactionId = TestPurchase.nextId()
            claim.originalTransactionId = claim.transactionId
            claim.productId = TestCatalog.lifetime
            claim.productType = .nonConsumable
            claim.evidence = .claim
            claim.signedTransaction = nil
            try save(records + [claim], ledgerKey, in: store)
            return claim.transactionId
        case .userDefaultsFlag:
            let suite = "storesync.scenario.\(UUID().uuidString)"
            let defaults = try #require(UserDefaults(suiteName: suite))
            defer { defaults.removePersistentDomain(forName: suite) }
            defaults.set(true, forKey: TestCatalog.lifetime)
            #expect(try await client.importLegacyFlags(from: defaults, productIds: [TestCatalog.lifetime]) == 1)
            return nil
        }
    }

    static func ledger(_ key: String, in store: InMemoryStore) throws -> [TransactionRecord] {
        guard let bytes = store.data(forKey: key) else { return [] }
        return try StoreSyncJSON.makeDecoder().decode([TransactionRecord].self, from: bytes)
    }

    static func save(_ records: [TransactionRecord], _ key: String, in store: InMemoryStore) throws {
        store.set(try StoreSyncJSON.makeEncoder().encode(records), forKey: key)
    }
}
