import Foundation
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

/// The outbox holds purchases StoreKit was told to finish before the server acknowledged them:
/// an element this version cannot read as its own (another version of the app wrote it, in a
/// cache shared through iCloud, or before an update) is read by its signed transaction, and
/// what cannot be read at all is kept aside, never deleted.
@Suite struct OutboxCompatibilityTests {
    /// A signed-in device whose outbox holds `elements` (JSON objects) as written elsewhere.
    private static func device(on server: TestServer, outbox elements: [String]) async throws
        -> (TestDevice, accountId: UUID, key: String)
    {
        let device = TestDevice(server: server)
        let session = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
        let key = CachePartition.account(session.accountId).key(.outbox)
        try device.store.set(Data("[\(elements.joined(separator: ","))]".utf8), forKey: key)
        return (device, session.accountId, key)
    }

    @Test func anEntryAnotherVersionWroteIsUploadedFromItsSignedTransaction() async throws {
        try await withLiveServer { server in
            let purchase = TestPurchase.buy(TestCatalog.lifetime, on: server)
            // A later layout: renamed scheduling fields, one more member, no `attempts`.
            let later = """
                {"id":"v9-\(UUID().uuidString)","signedTransaction":"\(purchase.jws)","retry":{"count":2},\
                "queuedAt":"2026-11-28T05:00:00.000Z"}
                """
            let (device, accountId, key) = try await Self.device(on: server, outbox: [later])

            #expect(await device.client.pendingUploads == 1)
            #expect(await device.client.flush().uploaded == 1)
            #expect(await device.client.isEntitled(to: "premium"))
            #expect(try device.store.data(forKey: key) == nil, "acknowledged: the outbox is empty")
            #expect(await device.client.quarantined(in: .account(accountId)).isEmpty)
            #expect(await device.client.integrityIssues.isEmpty)
        }
    }

    @Test func anElementWithNoSignedTransactionIsKeptAsideAndTheOthersStillGoUp() async throws {
        try await withLiveServer { server in
            let purchase = TestPurchase.buy(TestCatalog.lifetime, on: server)
            let current = try String(
                decoding: StoreSyncClient.encoder.encode(
                    OutboxEntry(record: purchase.record, signedTransaction: purchase.jws, at: server.clock.now())),
                as: UTF8.self)
            let unreadable = #"{"payload":"a form this version has never seen"}"#
            let (device, accountId, key) = try await Self.device(on: server, outbox: [unreadable, current])
            let written = try #require(try device.store.data(forKey: key))

            #expect(await device.client.flush().uploaded == 1)
            #expect(await device.client.isEntitled(to: "premium"))
            #expect(await device.client.quarantined(in: .account(accountId)) == [.outbox: [written]], "the outbox as it was, once")
            let issues = await device.client.integrityIssues
            let quarantineKey = CachePartition.account(accountId).key(.unreadable)
            #expect(issues.contains { $0.key == key && $0.problem.contains("1 of 2 elements") && $0.problem.contains("kept in \(quarantineKey)") })
        }
    }

    @Test func anOutboxThatIsNoListIsKeptAsideNotDeleted() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            let session = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            let key = CachePartition.account(session.accountId).key(.outbox)
            let foreign = Data(#"{"format":2,"entries":{}}"#.utf8)
            try device.store.set(foreign, forKey: key)

            #expect(await device.client.pendingUploads == 0)
            #expect(await device.client.quarantined(in: .account(session.accountId)) == [.outbox: [foreign]])
            // Read again: kept once.
            #expect(await device.client.pendingUploads == 0)
            #expect(await device.client.quarantined(in: .account(session.accountId)) == [.outbox: [foreign]])
        }
    }
}
