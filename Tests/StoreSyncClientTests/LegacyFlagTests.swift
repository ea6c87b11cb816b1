import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

@Suite struct LegacyFlagTests {
    @Test func flagsAreConfirmedForAnOwnedProductAndDroppedForAnUnownedOne() async throws {
        try await withLiveServer { server in
            let email = TestAccount.email()
            let phone = TestDevice(server: server)
            try await phone.client.signUp(email: email, password: TestAccount.password)
            _ = try await phone.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)

            // The old app version's cache on another device: one flag per product, one of them forged.
            let tablet = TestDevice(server: server)
            try await tablet.client.signIn(email: email, password: TestAccount.password)
            let imported = try await tablet.client.importLegacyFlags([
                TestCatalog.lifetime: true, TestCatalog.seasonPass: true, TestCatalog.monthly: false,
            ])
            #expect(imported == 2)
            #expect(await tablet.client.pendingLegacyFlags == [TestCatalog.lifetime, TestCatalog.seasonPass])

            let outcome = try await tablet.client.restore()
            #expect(outcome.confirmedLegacyProducts == [TestCatalog.lifetime])
            #expect(outcome.droppedLegacyProducts == [TestCatalog.seasonPass])
            #expect(await tablet.client.pendingLegacyFlags.isEmpty)
            #expect(await tablet.client.isEntitled(to: "premium"))
            #expect(await tablet.client.isEntitled(to: "season") == false, "a flag alone grants nothing")

            let again = try await tablet.client.restore()
            #expect(again.confirmedLegacyProducts.isEmpty && again.droppedLegacyProducts.isEmpty, "settled once")
        }
    }

    @Test func flagsImportedFromUserDefaultsBeforeSignInAreSettledAtSignIn() async throws {
        try await withLiveServer { server in
            let email = TestAccount.email()
            let phone = TestDevice(server: server)
            try await phone.client.signUp(email: email, password: TestAccount.password)
            _ = try await phone.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)

            let suite = "storesync.tests.\(UUID().uuidString)"
            let defaults = try #require(UserDefaults(suiteName: suite))
            defer { defaults.removePersistentDomain(forName: suite) }
            defaults.set(true, forKey: TestCatalog.lifetime)
            defaults.set(true, forKey: TestCatalog.seasonPass)
            defaults.set(false, forKey: TestCatalog.monthly)

            let upgraded = TestDevice(server: server)
            let imported = try await upgraded.client.importLegacyFlags(
                from: defaults, productIds: [TestCatalog.lifetime, TestCatalog.seasonPass, TestCatalog.monthly])
            #expect(imported == 2)
            #expect(defaults.object(forKey: TestCatalog.lifetime) == nil, "the forgeable flags are gone")
            #expect(defaults.object(forKey: TestCatalog.seasonPass) == nil)
            #expect(await upgraded.client.pendingLegacyFlags == [TestCatalog.lifetime, TestCatalog.seasonPass])

            try await upgraded.client.signIn(email: email, password: TestAccount.password)
            #expect(await upgraded.client.pendingLegacyFlags.isEmpty)
            #expect(await upgraded.client.isEntitled(to: "premium"))
            #expect(await upgraded.client.isEntitled(to: "season") == false)
            #expect(upgraded.transport.requests(to: "/v1/restore") == 1)
        }
    }
}
