import Foundation
import StoreSyncAPI
import StoreSyncCore
import StoreSyncServer
import StoreSyncTesting
import Testing

@Suite struct RestoreTests {
    @Test func aRestoreThatYieldsANewTransactionIdForTheSamePurchaseIsOnePurchase() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let original = TestPurchases.record(purchased: now)
            let restoredCopy = TestPurchases.record(
                original: original.originalTransactionId, purchased: now.addingTimeInterval(3600),
                signed: now.addingTimeInterval(3600))
            _ = try await server.buy(original, token: account.token)
            let response = try await server.restore([server.entry(restoredCopy)], token: account.token)
            #expect(response.verdicts.map(\.verdict) == [.accepted])
            #expect(response.snapshot.entitlements.count == 1)
            #expect(response.snapshot.entitlements[0].originalTransactionId == original.originalTransactionId)
            #expect(try await server.count("purchase_owners") == 1)
        }
    }

    @Test func entriesWithoutSignedDataAreConfirmedOnlyByWhatTheServerHolds() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let held = TestPurchases.record(purchased: server.clock.now())
            _ = try await server.buy(held, token: account.token)
            var unknown = TestPurchases.record(TestCatalog.lifetime, purchased: server.clock.now())
            unknown.evidence = .jws
            var claim = TestPurchases.record(TestCatalog.seasonPass, type: .nonRenewing, purchased: server.clock.now())
            claim.evidence = .claim

            let response = try await server.restore([held, unknown, claim], token: account.token)
            #expect(response.verdicts.map(\.verdict) == [.known, .rejected, .unverifiedClaim])
            #expect(response.snapshot.entitlements.map(\.entitlementId) == ["premium"])
        }
    }

    @Test func aForgedCacheEntryIsRejectedAndGrantsNothing() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let coins = TestPurchases.record(TestCatalog.coins, type: .consumable, purchased: server.clock.now())
            var forged = server.entry(coins)
            forged.productId = TestCatalog.lifetime
            forged.productType = .nonConsumable

            let response = try await server.restore([forged], token: account.token)
            #expect(response.verdicts.map(\.verdict) == [.rejected])
            #expect(response.snapshot.entitlements.isEmpty)
            #expect(try await server.count("transactions") == 0)
        }
    }

    @Test func aTamperedSignatureIsRejectedPerEntryNotForTheWholeRestore() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let good = server.entry(TestPurchases.record(purchased: server.clock.now()))
            var bad = server.entry(TestPurchases.record(TestCatalog.seasonPass, type: .nonRenewing, purchased: server.clock.now()))
            bad.signedTransaction = String(bad.signedTransaction!.dropLast(4)) + "AAAA"
            let response = try await server.restore([good, bad], token: account.token)
            #expect(response.verdicts.map(\.verdict) == [.accepted, .rejected])
            #expect(response.snapshot.entitlements.map(\.entitlementId) == ["premium"])
        }
    }

    @Test func legacyFlagsAreConfirmedForOwnedProductsAndReportedForOthers() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            _ = try await server.buy(TestPurchases.record(purchased: server.clock.now()), token: account.token)
            let response = try await server.restore(
                [], legacyFlags: [TestCatalog.lifetime: true, TestCatalog.monthlyPro: true, TestCatalog.seasonPass: false],
                token: account.token)
            let byProduct = Dictionary(uniqueKeysWithValues: response.verdicts.map { ($0.productId ?? "", $0.verdict) })
            #expect(byProduct == [TestCatalog.lifetime: .known, TestCatalog.monthlyPro: .unverifiedClaim])
            #expect(response.snapshot.entitlements.map(\.entitlementId) == ["premium"])
        }
    }

    @Test func aRenewalOnOneDeviceBeatsAStaleCacheOnAnother() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            // The first period ended ten days ago; the renewal runs until twenty days from now.
            let start = server.clock.now().addingTimeInterval(-40 * 86_400)
            let first = TestPurchases.record(
                TestCatalog.monthly, type: .autoRenewable, purchased: start, expires: start.addingTimeInterval(30 * 86_400),
                group: TestCatalog.subscriptionGroup)
            let renewal = TestPurchases.record(
                TestCatalog.monthly, type: .autoRenewable, original: first.originalTransactionId,
                purchased: start.addingTimeInterval(30 * 86_400), expires: start.addingTimeInterval(60 * 86_400),
                group: TestCatalog.subscriptionGroup)
            _ = try await server.buy(first, token: account.token)
            _ = try await server.buy(renewal, token: account.token)
            // The other device still holds only the first period and restores with it.
            let response = try await server.restore([server.entry(first)], token: account.token)
            #expect(response.verdicts.map(\.verdict) == [.known])
            #expect(response.snapshot.entitlements.first?.expiresAt == renewal.expiresDate)
        }
    }

    @Test func restoresFromManyEntriesAnswerOneVerdictEach() async throws {
        try await withServer { server in
            let account = try await server.signUp()
            let now = server.clock.now()
            let entries = (0..<60).map { index in
                server.entry(TestPurchases.record(
                    TestCatalog.coins, type: .consumable, purchased: now.addingTimeInterval(Double(index))))
            }
            let response = try await server.restore(entries, token: account.token)
            #expect(response.verdicts.count == 60)
            #expect(Set(response.verdicts.map(\.verdict)) == [.accepted])
            #expect(response.snapshot.transactions.count == 60)
            #expect(response.snapshot.entitlements.isEmpty)
        }
    }

    @Test func tooManyEntriesAreRefused() async throws {
        try await withServer(configure: { $0.maxRestoreEntries = 2 }) { server in
            let account = try await server.signUp()
            let entries = (0..<3).map { _ in TestPurchases.record(purchased: server.clock.now()) }
            let response = try await server.send(
                "POST", "/v1/restore", token: account.token, json: RestoreRequest(entries: entries))
            #expect(response.status == 400)
            #expect(response.problem?.field == "entries")
        }
    }
}
