import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

/// A device built against this client meets snapshots from a later release of the server:
/// members it does not know, values it does not know. They are signed like every other byte,
/// so the device verifies them as received, keeps those bytes, and trusts them offline.
@Suite struct SnapshotEvolutionTests {
    @Test func refreshedSnapshotWithMembersThisVersionDoesNotKnowVerifiesAndIsTrustedAfterARelaunch() async throws {
        try await withLiveServer { server in
            let email = TestAccount.email()
            let directory = TestDirectory.make()
            let device = TestDevice.onDisk(server: server, directory: directory)
            device.transport.rewritingResponses = try NewerServerRelease(server, edit: NewerServerRelease.addedMembers).rewrite
            let accountId = try await device.client.signUp(email: email, password: TestAccount.password).accountId
            try await buyLifetime(on: server, email: email)

            guard case .updated(let snapshot) = try await device.client.refresh() else {
                Issue.record("the refresh found nothing new")
                return
            }
            #expect(snapshot.entitlements.map(\.entitlementId) == ["premium"])
            #expect(snapshot.transactions.map(\.productId) == [TestCatalog.lifetime])
            #expect(await device.client.isEntitled(to: "premium"))
            #expect(try cachedText(of: accountId, in: directory).contains("addedToTransaction"), "the bytes as received are kept")

            try await expectTrustedOfflineAfterARelaunch(device, on: server)
        }
    }

    @Test func syncAnswersWithMembersThisVersionDoesNotKnowVerifyAndAreKeptAsReceived() async throws {
        try await withLiveServer { server in
            let email = TestAccount.email()
            let directory = TestDirectory.make()
            let device = TestDevice.onDisk(server: server, directory: directory)
            // Only sync answers are edited: a cache holding the added members got them from one.
            device.transport.rewritingResponses = try NewerServerRelease(
                server, paths: ["/v1/transactions", "/v1/restore"], edit: NewerServerRelease.addedMembers
            ).rewrite
            let accountId = try await device.client.signUp(email: email, password: TestAccount.password).accountId

            _ = try await device.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)
            #expect(await device.client.pendingUploads == 0, "the upload's answer verified")
            #expect(await device.client.isEntitled(to: "premium"))
            #expect(try cachedText(of: accountId, in: directory).contains("addedToTransaction"))

            try await buyMonthly(on: server, email: email)
            let restored = try await device.client.restore()
            #expect(restored.snapshot.transactions.count == 2)
            #expect(restored.entitlements.map(\.entitlementId) == ["premium"])
            let cached = try cachedText(of: accountId, in: directory)
            #expect(cached.contains("addedToTransaction") && cached.contains("\"version\":\(restored.snapshot.version)"))

            try await expectTrustedOfflineAfterARelaunch(device, on: server)
        }
    }

    @Test func snapshotWithValuesThisVersionDoesNotKnowStillGrants() async throws {
        try await withLiveServer { server in
            let email = TestAccount.email()
            let device = TestDevice.onDisk(server: server)
            device.transport.rewritingResponses = try NewerServerRelease(server, edit: NewerServerRelease.unknownValues).rewrite
            _ = try await device.client.signUp(email: email, password: TestAccount.password)
            try await buyLifetime(on: server, email: email)

            guard case .updated(let snapshot) = try await device.client.refresh() else {
                Issue.record("the refresh found nothing new")
                return
            }
            let entitlement = try #require(snapshot.entitlement("premium"))
            #expect(entitlement.environment == .production, "an unknown environment reads as an absent one")
            #expect(entitlement.ownershipType == .purchased, "an unknown ownership type reads as an absent one")
            #expect(snapshot.transactions.map(\.evidence) == [.unrecognized(kind: "appTransaction")])
            #expect(await device.client.isEntitled(to: "premium"))

            // The record the device keeps from it is not sent back: the restore goes through.
            let restored = try await device.client.restore()
            #expect(restored.entitlements.map(\.entitlementId) == ["premium"])
            #expect(device.transport.jsonBodies(sentTo: "/v1/restore").allSatisfy { ($0["entries"] as? [Any])?.isEmpty ?? true })
            try await expectTrustedOfflineAfterARelaunch(device, on: server)
        }
    }

    @Test func snapshotCachedReEncodedByAnEarlierVersionStillVerifies() async throws {
        try await withLiveServer { server in
            let directory = TestDirectory.make()
            let device = TestDevice.onDisk(server: server, directory: directory)
            let accountId = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password).accountId
            _ = try await device.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)
            #expect(await device.client.isEntitled(to: "premium"))

            // Earlier versions cached a sync answer's snapshot encoded again, members sorted.
            let file = directory.appendingPathComponent(CachePartition.account(accountId).key(.snapshot))
            let snapshot = try StoreSyncJSON.makeDecoder().decode(Snapshot.self, from: Data(contentsOf: file))
            let reEncoded = try StoreSyncJSON.makeEncoder().encode(snapshot)
            #expect(!reEncoded.starts(with: Data(#"{"signature""#.utf8)))
            try reEncoded.write(to: file)

            try await expectTrustedOfflineAfterARelaunch(device, on: server)
        }
    }

    // MARK: - Helpers

    /// The account buys on another device, so the device under test learns of it from the server.
    private func buyLifetime(on server: TestServer, email: String) async throws {
        try await buy(TestCatalog.lifetime, on: server, email: email)
    }

    private func buyMonthly(on server: TestServer, email: String) async throws {
        try await buy(TestCatalog.monthly, on: server, email: email)
    }

    private func buy(_ productId: String, on server: TestServer, email: String) async throws {
        let other = TestDevice(server: server)
        _ = try await other.client.signIn(email: email, password: TestAccount.password)
        _ = try await other.client.record(signedTransaction: TestPurchase.buy(productId, on: server).jws)
        #expect(await other.client.pendingUploads == 0)
    }

    private func cachedText(of accountId: UUID, in directory: URL) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(CachePartition.account(accountId).key(.snapshot)), encoding: .utf8)
    }

    /// Quit, reopen with no network: the cached bytes are verified again from disk.
    private func expectTrustedOfflineAfterARelaunch(_ device: TestDevice, on server: TestServer) async throws {
        device.transport.isOffline = true
        let relaunched = device.relaunched(on: server)
        #expect(await relaunched.client.isEntitled(to: "premium"))
        #expect(await relaunched.client.integrityIssues.isEmpty)
    }
}
