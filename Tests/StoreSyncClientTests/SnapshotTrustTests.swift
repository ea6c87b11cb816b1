import Crypto
import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import StoreSyncWire
import Testing

@Suite struct SnapshotTrustTests {
    @Test func snapshotEditedOnDiskIsDiscardedAfterARestart() async throws {
        try await withLiveServer { server in
            let directory = TestDirectory.make()
            let accountId: UUID
            do {
                let device = TestDevice.onDisk(server: server, directory: directory)
                accountId = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password).accountId
                _ = try await device.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)
                #expect(await device.client.isEntitled(to: "premium"))
            }
            let file = directory.appendingPathComponent(CachePartition.account(accountId).key(.snapshot))
            try tamper(file) { $0.replacingOccurrences(of: "\"premium\"", with: "\"pro\"") }

            let restarted = TestDevice.onDisk(server: server, directory: directory)
            #expect(await restarted.client.entitlements() == .none)
            #expect(await restarted.client.isEntitled(to: "pro") == false)
            #expect(await restarted.client.isEntitled(to: "premium") == false)
            let issue = try #require(await restarted.client.integrityIssues.first)
            #expect(issue.key == CachePartition.account(accountId).key(.snapshot))
            #expect(FileManager.default.fileExists(atPath: file.path) == false, "the edited snapshot is deleted")

            #expect(try await restarted.client.refresh() != .notModified)
            #expect(await restarted.client.isEntitled(to: "premium"))
        }
    }

    @Test func snapshotEditedWhileTheAppRunsIsNoticedAtTheNextQuestion() async throws {
        try await withLiveServer { server in
            let directory = TestDirectory.make()
            let device = TestDevice.onDisk(server: server, directory: directory)
            let accountId = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password).accountId
            _ = try await device.client.record(signedTransaction: TestPurchase.buy(TestCatalog.monthly, on: server).jws)
            #expect(await device.client.isEntitled(to: "premium"))

            // Push validUntil and the subscription's end a year out: a classic offline hack.
            let file = directory.appendingPathComponent(CachePartition.account(accountId).key(.snapshot))
            try tamper(file) { text in
                text.replacingOccurrences(of: "\"validUntil\":\"20", with: "\"validUntil\":\"21")
                    .replacingOccurrences(of: "\"expiresAt\":\"20", with: "\"expiresAt\":\"21")
            }
            let farFuture = server.clock.now().addingTimeInterval(200 * 86_400)
            #expect(await device.client.isEntitled(to: "premium", at: farFuture) == false)
            #expect(await device.client.isEntitled(to: "premium") == false, "the edited snapshot is gone, not just ignored")
            #expect(await device.client.integrityIssues.count == 1)
        }
    }

    @Test func snapshotsSignedWithAnotherKeyAreNeverTrusted() async throws {
        try await withLiveServer { server in
            let wrongKey = Curve25519.Signing.PrivateKey().publicKey.rawRepresentation.base64EncodedString()
            let device = TestDevice(server: server, publicKey: wrongKey)
            let session = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            let lifetime = TestPurchase.buy(TestCatalog.lifetime, on: server)

            // The upload reached the server, but an acknowledgement that does not verify is not
            // believed: the purchase stays queued.
            #expect(try await device.client.record(signedTransaction: lifetime.jws) == .queued)
            #expect(await device.client.pendingUploads == 1)
            await #expect(throws: StoreSyncClientError.untrustedSnapshot) { try await device.client.restore() }
            await #expect(throws: StoreSyncClientError.untrustedSnapshot) { try await device.client.refresh() }
            #expect(await device.client.entitlements() == .none)
            #expect(try device.store.data(forKey: CachePartition.account(session.accountId).key(.snapshot)) == nil)
        }
    }

    private func tamper(_ file: URL, _ edit: (String) -> String) throws {
        let original = try String(contentsOf: file, encoding: .utf8)
        let edited = edit(original)
        #expect(edited != original, "the edit must change the snapshot")
        try Data(edited.utf8).write(to: file)
    }
}

@Suite struct SnapshotVerifierTests {
    let key = Curve25519.Signing.PrivateKey()
    let accountId = UUID()

    func signed(_ snapshot: Snapshot) throws -> Data {
        let signature = try key.signature(for: snapshot.signedBytes()).base64EncodedString()
        return try StoreSyncJSON.makeEncoder().encode(snapshot.signed(signature))
    }

    var snapshot: Snapshot {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        return Snapshot(
            accountId: accountId, version: 3, generatedAt: now, validUntil: now.addingTimeInterval(3600),
            entitlements: [Entitlement(
                entitlementId: "premium", productId: "lifetime", originalTransactionId: "1", expiresAt: nil,
                ownershipType: .purchased, source: .nonConsumable, environment: .production)],
            transactions: [])
    }

    var verifier: SnapshotVerifier { SnapshotVerifier(base64PublicKey: key.publicKey.rawRepresentation.base64EncodedString()) }

    @Test func snapshotSignedWithThePinnedKeyVerifies() throws {
        let verified = try verifier.verify(bytes: try signed(snapshot), accountId: accountId)
        #expect(verified.entitlements.map(\.entitlementId) == ["premium"])
    }

    @Test func snapshotOfAnotherAccountIsRefused() throws {
        #expect(throws: SnapshotTrustFailure.otherAccount(accountId)) {
            try verifier.verify(bytes: try signed(snapshot), accountId: UUID())
        }
    }

    @Test func changingAnySignedFieldBreaksTheSignature() throws {
        let bytes = try signed(snapshot)
        let text = String(decoding: bytes, as: UTF8.self)
        for (from, to) in [("\"version\":3", "\"version\":4"), ("\"premium\"", "\"pro\""), ("lifetime", "monthly")] {
            let edited = Data(text.replacingOccurrences(of: from, with: to).utf8)
            #expect(throws: SnapshotTrustFailure.badSignature) { try verifier.verify(bytes: edited, accountId: accountId) }
        }
    }

    @Test(arguments: ["", "not base64!", "AAAA"])
    func pinnedKeyThatIsNotAnEd25519KeyTrustsNothing(key: String) throws {
        let bytes = try signed(snapshot)
        #expect(throws: SnapshotTrustFailure.misconfiguredKey) {
            try SnapshotVerifier(base64PublicKey: key).verify(bytes: bytes, accountId: accountId)
        }
    }

    @Test(arguments: [Data(), Data("{}".utf8), Data("[1,2]".utf8), Data(repeating: 0xFF, count: 64)])
    func bytesThatAreNotASnapshotAreMalformed(bytes: Data) {
        #expect {
            try verifier.verify(bytes: bytes, accountId: accountId)
        } throws: { error in
            if case SnapshotTrustFailure.malformed = error { return true }
            return false
        }
    }
}
